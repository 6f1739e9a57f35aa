/**
 * The key-less settings extractor: what a paper's tables and sentences state plainly ("group size
 * of 16", "learning rate 1e-6", "$\epsilon_{high}=0.28$", "Qwen2.5-7B"), each with the table row or
 * sentence that states it as evidence (a span of the text itself, so it always passes the evidence
 * rule). Only the paper's own setup is read: introductions, related work and conclusions describe
 * other papers' numbers. Units are read best first (sectionScore: hyperparameter tables, setup,
 * appendix settings), and the first statement of each setting wins. Pure.
 */
import { sectionScore, type TextSection } from './paper-text.ts';
import type { Setting, SettingKey } from './settings.ts';

/** Headings whose numbers are usually someone else's. */
const NOT_OURS = /\b(introduction|related|background|conclusion|discussion|future work|limitation)/i;

/** A number as LaTeX or prose writes it: 1e-6, 1\times 10^{-6}, 5 × 10−7, 0.28, 8,192. */
const NUM = String.raw`(?:(?:\d+(?:\.\d+)?\s*(?:\\times|×|x|\\cdot)\s*)?(?:\\mathrm\s*\{\s*)?1\s*0\s*\^?\s*\{?\s*[-−]\s*\d+\s*\}?\s*\}?|\d+(?:\.\d+)?\s*[eE]\s*[-−]?\s*\d+|\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)`;
const EPS = String.raw`(?:\\epsilon|\\varepsilon|ε|ϵ|epsilon)`;
const IS = String.raw`\s*(?:(?:is|was|are|were) (?:set|fixed) (?:to be|to|at)|set to be|set to|fixed at|of|is|to|=|:|as|at|was|are|equals?)?\s*\$?\s*`;
/** Numbers papers spell out. */
const WORD_NUMBERS: Record<string, string> = {
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  ten: '10',
  twelve: '12',
  sixteen: '16',
  'thirty-two': '32',
  'sixty-four': '64',
};
const COUNT = String.raw`(\d{1,3}|${Object.keys(WORD_NUMBERS).join('|')})`;

/** Writes a matched number the short way: "1\times 10^{-6}" -> "1e-6", "8,192" -> "8192". */
export function normaliseNumber(raw: string): string {
  const t = raw
    .replace(/\s+/g, '')
    .replace(/−/g, '-')
    .replace(/\\mathrm\{(.*)\}$/, '$1');
  if (WORD_NUMBERS[t.toLowerCase()]) return WORD_NUMBERS[t.toLowerCase()]!;
  const pow = /^(?:(\d+(?:\.\d+)?)(?:\\times|×|x|\\cdot))?(?:\\mathrm\{)?10\^?\{?(-\d+)\}?\}?$/.exec(t);
  if (pow) return `${pow[1] ?? '1'}e${pow[2]}`;
  const e = /^(\d+(?:\.\d+)?)[eE](-?\d+)$/.exec(t);
  if (e) return `${e[1]}e${e[2]}`;
  return t.replace(/,(?=\d{3}\b)/g, '');
}

type Finder = (line: string, table: boolean) => string | undefined;

/** Table rows: the first cell names the setting, the rest hold its value(s). */
const row =
  (label: RegExp, value: (v: string) => string | undefined = (v) => v): Finder =>
  (line, table) => {
    if (!table) return undefined;
    const [head, ...cells] = line.split(' | ');
    if (!head || !label.test(head.trim()) || cells.length === 0) return undefined;
    const values = [...new Set(cells.map((c) => c.trim()).filter(Boolean))];
    return values.length ? value(values.join(' / ')) : undefined;
  };

const sentence =
  (re: RegExp, value: (m: RegExpExecArray) => string | undefined): Finder =>
  (line, table) => {
    if (table) return undefined;
    const m = re.exec(line);
    return m ? value(m) : undefined;
  };

const num = (i: number) => (m: RegExpExecArray) => normaliseNumber(m[i]!);
const NUMERIC_CELL = new RegExp(`^\\$?${NUM}\\$?$`);
const numericCell = (v: string) => (NUMERIC_CELL.test(v.trim()) ? normaliseNumber(v.replace(/\$/g, '')) : undefined);
const re = (source: string, flags = 'i') => new RegExp(source, flags);

const MODEL =
  /\b((?:Qwen-?\d(?:\.\d)?(?:-[A-Za-z]+)*-\d+(?:\.\d+)?B(?:-(?:Instruct|Base|Chat|Math|Coder|Preview|it))*)|(?:(?:Meta-)?L[Ll]a[Mm][Aa]-?\d(?:\.\d)?-\d+B(?:-(?:Instruct|Base|Chat|it))*)|(?:DeepSeek-R1-Distill-(?:Qwen|Llama)-?\d+(?:\.\d+)?B)|(?:Seed-OSS-\d+B(?:-Instruct|-Base)?)|(?:Mistral-\d+B(?:-[A-Za-z0-9.]+)*)|(?:Gemma-?\d?-\d+B(?:-it)?)|(?:OLMo-?\d?-\d+B(?:-[A-Za-z]+)*)|(?:Phi-\d(?:\.\d)?(?:-mini)?))/g;
const TRAIN_CUE =
  /\b(train|trains|trained|training|fine-tun|initiali[sz]|base model|start(?:ing)? from|policy model|backbone|apply (?:rl|grpo)|rl on|we use|experiments (?:on|with|using)|model sizes)\b/i;
const DATASETS =
  /\b(DAPO-(?:Math-)?17[kK]|DeepScaleR(?:-Preview)?(?:-Dataset)?|OpenR1-Math(?:-220k)?|NuminaMath(?:-CoT|-1\.5)?|Skywork-OR1(?:-RL-Data)?|ORZ-Math(?:-57k)?|Open-Reasoner-Zero|Big-Math|Eurus-2-RL-Data|DeepMath-103K|MATH-lighteval|GSM8K|LIMR|OpenMathReasoning|Polaris(?:-Dataset)?|SimpleRL(?:-Zoo)?|MATH(?: dataset| training set)|Countdown|KK|Knights and Knaves|ToolRL|Geometry3K|CLEVR)\b/g;
const DATA_CUE =
  /\b(train\w*\b[^;]{0,60}?\bon\b|train(?:ed|ing)? (?:on|data|set|corpus)|training (?:data|set|corpus|prompts)|rl (?:data|training) on|we (?:use|adopt|take) .{0,60}(?:for|as) (?:rl )?training)\b/i;

/** Per setting, the ways a table row or sentence states it; the first that matches gives the value. */
const FINDERS: Record<SettingKey, Finder[]> = {
  base_model: [
    (line, table) => {
      if (table || !TRAIN_CUE.test(line)) return undefined;
      const names = [...new Set([...line.matchAll(MODEL)].map((m) => m[1]!))];
      return names.length ? names.slice(0, 3).join(', ') : undefined;
    },
  ],
  group_size: [
    row(
      /^(group size|rollouts?(?: number| n)?(?: per (?:prompt|question|query|problem))?|responses? per (?:prompt|question)|samples? per (?:prompt|question)|(?:number of|#) ?(?:rollouts|responses|samples|generations)(?: per \w+)?|n[_ ]?(?:samples|generations|rollouts)|rollout\.n|\$?G\$?)(?:\s*\(\$?G\$?\))?$/i,
      numericCell,
    ),
    sentence(re(String.raw`\bgroup size(?:\s*\$?G\$?)?${IS}(?:G\s*=\s*)?(\d{1,3})\b`), num(1)),
    sentence(
      re(
        String.raw`\b${COUNT}\s+(?:\w+\s+){0,2}?(?:responses|rollouts|completions|outputs|solutions|samples|generations|trajectories|candidates)\s+(?:(?:are|were)\s+(?:sampled|generated|drawn)\s+)?(?:per|for each|for every|to each|of each)\s+(?:prompt|question|query|problem|input|instance|task)`,
      ),
      num(1),
    ),
    sentence(re(String.raw`\$G\s*=\s*(\d{1,3})\$`, ''), num(1)),
  ],
  clip_eps_low: [
    row(
      re(String.raw`^(?:clip(?:ping)? (?:range|ratio|epsilon|threshold)|${EPS})(?:[^|]*low)?[^|]*$`),
      (v) => /^\(?\s*([\d.]+)\s*[,/]/.exec(v)?.[1] ?? numericCell(v),
    ),
    sentence(re(String.raw`${EPS}_?\{?(?:low|min|lower|\\text\{low\}|\\mathrm\{low\})\}?\s*=\s*([\d.]+)`), (m) => m[1]),
    sentence(
      re(
        String.raw`${EPS}_?\{?low\}?\$?\s*and\s*\$?${EPS}_?\{?high\}?\$?[^.;]{0,40}?(?:to|as|=|of)\s*\$?([\d.]+)\$?\s*and\s*\$?([\d.]+)`,
      ),
      (m) => m[1],
    ),
    sentence(
      re(
        String.raw`\bclip(?:ping)? (?:range|ratio|threshold|parameter|epsilon|coefficient|width)(?:\s*\$?${EPS}\$?)?${IS}(?:${EPS}\s*=\s*)?([\d.]+)\b`,
      ),
      (m) => m[1],
    ),
    sentence(re(String.raw`\b(?:parameter|coefficient)\s*\$?${EPS}\$?${IS}([\d.]+)\b`), (m) => m[1]),
  ],
  clip_eps_high: [
    row(
      re(String.raw`^(?:clip(?:ping)? (?:range|ratio|epsilon|threshold)|${EPS})[^|]*$`),
      (v) => /^\(?\s*[\d.]+\s*[,/]\s*([\d.]+)\s*\)?$/.exec(v)?.[1],
    ),
    row(re(String.raw`^(?:clip[^|]*high|${EPS}[^|]*high)[^|]*$`), numericCell),
    sentence(
      re(String.raw`${EPS}_?\{?(?:high|max|upper|\\text\{high\}|\\mathrm\{high\})\}?\s*(?:=|as|to)\s*([\d.]+)`),
      (m) => m[1],
    ),
    sentence(
      re(
        String.raw`${EPS}_?\{?low\}?\$?\s*and\s*\$?${EPS}_?\{?high\}?\$?[^.;]{0,40}?(?:to|as|=|of)\s*\$?([\d.]+)\$?\s*and\s*\$?([\d.]+)`,
      ),
      (m) => m[2],
    ),
    sentence(re(String.raw`\b(?:upper|high(?:er)?) clip(?:ping)? (?:bound|range|threshold)${IS}([\d.]+)`), (m) => m[1]),
  ],
  kl_coef: [
    row(
      /^(kl(?: loss| penalty| divergence)? (?:coef(?:ficient)?|weight|penalty)|\$?\\beta\$?|β|kl_coef|init_kl_coef)(?:\s*\(\$?\\beta\$?\))?$/i,
      (v) => numericCell(v) ?? (/^(none|no|—|-|n\/a)$/i.test(v) ? '0 (no KL term)' : undefined),
    ),
    sentence(
      re(
        String.raw`\bKL (?:penalty |divergence |loss |regulari[sz]ation )?(?:coefficient|coef|weight|penalty coefficient)(?:\s*\$?\\beta\$?)?${IS}(?:\\beta\s*=\s*)?(${NUM})`,
      ),
      num(1),
    ),
    sentence(/\bKL\b[^.]{0,60}\$\\beta\s*=\s*([\d.eE-]+)\$/, (m) => normaliseNumber(m[1]!)),
    sentence(
      /\b(?:remove|removes|removed|removing|drop|drops|dropped|without|exclude|excludes|eliminate|eliminates|disable|disables|no)\b[^.;]{0,30}\bKL\b/i,
      () => '0 (no KL term)',
    ),
    sentence(
      /\bKL\b[^.;]{0,30}\b(?:is|was|are|were) (?:omitted|removed|dropped|disabled|not used)\b/i,
      () => '0 (no KL term)',
    ),
  ],
  loss_aggregation: [
    sentence(
      /\btoken-level (?:policy[- ]gradient )?loss|averaged over all tokens|token-mean|normali[sz]ed by the total number of tokens/i,
      () => 'token-level (over all tokens in the batch)',
    ),
    sentence(
      /\bconstant normali[sz]er|max(?:imum)? (?:generation |completion )?length as (?:the )?(?:normali[sz]er|denominator)/i,
      () => 'constant normaliser',
    ),
    sentence(
      /\bsequence-level (?:loss|averag)|averaged? (?:within|over|per) each (?:sequence|response)(?: first)?/i,
      () => 'per-sequence mean',
    ),
  ],
  is_level: [
    sentence(/\bsequence-level (?:importance|likelihood|probability) (?:ratio|weight|sampling)/i, () => 'sequence'),
    sentence(/\btoken-level importance (?:ratio|weight|sampling)/i, () => 'token'),
  ],
  advantage_norm: [
    sentence(
      /\b(?:without|remove|removes|removed|removing|drop|drops|no)\b[^.;]{0,40}\b(?:standard deviation|std)\b/i,
      () => 'group mean only (no std)',
    ),
    sentence(/\bbatch(?:-level)? (?:std|standard deviation|advantage normali[sz]ation)/i, () => 'batch std'),
    sentence(
      /\bnormali[sz]ed (?:by|with|using) the group(?:'s)? mean and (?:the )?(?:group )?(?:standard deviation|std)|group mean and standard deviation/i,
      () => 'group mean and std',
    ),
  ],
  length_handling: [
    sentence(/\bsoft overlong (?:punishment|penalty)/i, () => 'soft overlong punishment'),
    sentence(
      /\boverlong (?:filtering|masking)|truncated (?:responses|samples|completions|outputs) are (?:excluded|masked|filtered|dropped)|mask(?:s|ing)? (?:out )?(?:the )?truncated/i,
      () => 'overlong filtering (truncated responses masked)',
    ),
    sentence(/\boverlong reward shaping|length penalty/i, (m) => m[0].toLowerCase()),
  ],
  max_response_length: [
    row(
      /^(max(?:imum)?[ _.]?(?:response|generation|completion|output|new)[ _.]?(?:length|tokens|len)|response length|max_response_length|max_tokens)$/i,
      numericCell,
    ),
    sentence(/\bprompt and response lengths? (?:are|were|of)\s+[\d,]+[kK]? and ([\d,]+[kK]?)/i, num(1)),
    sentence(
      re(
        String.raw`\b(?:max(?:imum)?(?: training)? (?:response|generation|completion|output|sequence|rollout|sampling)|response) lengths?${IS}(\d[\d,]*[kK]?)\b(?:\s*tokens)?`,
      ),
      num(1),
    ),
    sentence(/\b(?:up to|at most|maximum of)\s+(\d[\d,]*)\s+(?:generated |output |response )?tokens/i, num(1)),
  ],
  reward: [
    (line, table) => {
      if (table || !/\breward/i.test(line)) return undefined;
      const parts = [
        /rule-based/i.test(line) && 'rule-based',
        /verifiable/i.test(line) && 'verifiable',
        /math-verify/i.test(line) && 'Math-Verify',
        /binary|\b1 if\b|\b(?:\+1|1) for (?:a )?correct|\b1 (?:if|when) .{0,60}\b0 otherwise/i.test(line) &&
          'binary 1/0',
        /format reward/i.test(line) && 'format reward',
        /\breward model\b/i.test(line) && 'reward model',
        /unit tests?/i.test(line) && 'unit tests',
      ].filter((x): x is string => Boolean(x));
      return parts.length ? parts.join(', ') : undefined;
    },
  ],
  datasets: [
    (line, table) => {
      if (table || !DATA_CUE.test(line)) return undefined;
      const names = [...new Set([...line.matchAll(DATASETS)].map((m) => m[1]!))];
      return names.length ? names.slice(0, 4).join(', ') : undefined;
    },
  ],
  learning_rate: [
    row(/^(?:actor |policy )?(?:learning rate|lr)(?: \(actor\))?$/i, numericCell),
    sentence(re(String.raw`\blearning rate${IS}(${NUM})`), num(1)),
  ],
  batch_size: [
    row(/^(?:train(?:ing)?|rollout|prompt|global|generation)?[ _.]?batch[ _.]?size$/i, numericCell),
    sentence(
      re(
        String.raw`\b((?:train(?:ing)? |rollout |prompt |global |generation )?batch size)${IS}(\d[\d,]*)(\s*(?:prompts|questions|problems|responses|samples|rollouts|trajectories))?`,
      ),
      (m) => `${normaliseNumber(m[2]!)}${m[3] ? ` ${m[3].trim()}` : ''}`,
    ),
  ],
  steps: [
    row(/^(?:total |training |rl |max )?(?:training )?(?:steps|iterations)$/i, numericCell),
    sentence(
      /\b(?:for|train(?:ed|ing)? for|runs? for|total of)\s+(\d[\d,]*)\s+(?:training |gradient |RL |optimi[sz]ation |policy |update )?(?:steps|iterations)\b/i,
      num(1),
    ),
    sentence(/\b(\d[\d,]*)\s+(?:training|RL|gradient) steps\b/i, num(1)),
  ],
};

/** Sentences about another stage (SFT, evaluation) state that stage's settings, not the RL run's. */
const OTHER_STAGE =
  /\b(SFT|supervised fine-tuning|fine-tuning phase|distillation stage|for evaluation|during evaluation|during inference|at test time|for validation)\b/i;

/** Sentences and table rows of a unit: the evidence each finder reads. */
function lines(text: string): { line: string; table: boolean }[] {
  const out: { line: string; table: boolean }[] = [];
  for (const raw of text.split('\n')) {
    if (raw.includes(' | ')) {
      out.push({ line: raw, table: true });
      continue;
    }
    // Sentence ends: a full stop before a capital letter or a number; math ($...$) is never split.
    for (const s of raw.split(/(?<=[.!?])\s+(?=[A-Z(\d])(?=(?:[^$]*\$[^$]*\$)*[^$]*$)/))
      if (s.trim()) out.push({ line: s.trim(), table: false });
  }
  return out;
}

/** Long sentences are cut around what matched so the quote stays short; the cut is still a span of the text. */
function quote(line: string, value: string): string {
  if (line.length <= 400) return line;
  const at = Math.max(0, line.indexOf(value.split(/[ ,/]/)[0]!));
  const start = Math.max(0, line.lastIndexOf(' ', Math.max(0, at - 150)) + 1);
  const end = line.indexOf(' ', Math.min(line.length, start + 300));
  return line.slice(start, end < 0 ? undefined : end);
}

/** The settings the text states plainly, each with its evidence. */
export function extractSettings(sections: readonly TextSection[]): Setting[] {
  const units = sections
    // The abstract is read last: it names the model and data, but the setup says it with more precision.
    .map((s, i) => ({ s, i, score: s.kind === 'abstract' ? -100 : sectionScore(s) }))
    .filter(({ s }) => !NOT_OURS.test(s.heading))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    // Split once: every setting key reads the same lines.
    .map(({ s }) => ({ s, lines: lines(s.text) }));
  const found: Setting[] = [];
  for (const key of Object.keys(FINDERS) as SettingKey[]) {
    search: for (const { s, lines: unitLines } of units) {
      if (s.kind === 'abstract' && key !== 'base_model' && key !== 'datasets') continue;
      for (const { line, table } of unitLines) {
        if (!table && OTHER_STAGE.test(line)) continue;
        for (const find of FINDERS[key]) {
          // A value caught at a sentence's end keeps no punctuation: "128," and "0.28." are 128 and 0.28.
          const value = find(line, table)
            ?.trim()
            .replace(/[\s,.;:]+$/, '');
          if (value) {
            found.push({ key, value, evidence: quote(line, value) });
            break search;
          }
        }
      }
    }
  }
  return found;
}
