/**
 * Which named families a paper belongs to, by the role each name plays in the sentence it stands in,
 * not by where it occurs. A paper belongs to family F when it is F's defining paper, proposes a
 * variant of F, or trains with F as its own method (for RLVR: its own recipe is RL from verifiable,
 * rule-based or outcome rewards). It does not when F is a baseline or comparison ("outperforms GRPO"),
 * background or a citation ("methods such as GRPO"), part of a URL, repository, model or dataset name
 * (github.com/PRIME-RL/..., DAPO-Math-17k), or a different method that shares the name (an agent method
 * the paper itself calls "Flow-GRPO" and spells out differently).
 *
 * Every member comes with the deciding phrase, which the card shows. Pure; the text is expected to be
 * normalised as the classifier does it (`classify.ts`).
 */
import { FAMILY_CUES, FIRST_PERSON, OWN_NAME, RL_CONTEXT } from './lexicon.ts';

export type FamilyRole =
  'defining' | 'variant' | 'trains-with' | 'subject' | 'setting' | 'baseline' | 'background' | 'name' | 'clash';

/** Roles that make a paper a member of the family. `subject`: the authors' own sentence is about it ("we analyse GRPO's objective"). */
export const MEMBER_ROLES: readonly FamilyRole[] = ['defining', 'variant', 'trains-with', 'subject', 'setting'];

export interface FamilyMention {
  family: string;
  role: FamilyRole;
  where: 'title' | 'abstract';
  /** The words around the name that decided its role, as the card quotes them. */
  phrase: string;
}

export interface FamilyMember {
  family: string;
  role: FamilyRole;
  /** "trains with it: “…we utilize a modified version of GRPO…”". */
  reason: string;
}

const ROLE_WORDS: Record<FamilyRole, string> = {
  defining: 'its defining paper',
  variant: 'proposes a variant',
  'trains-with': 'trains with it',
  subject: 'the authors’ own subject',
  setting: 'the setting its method works in',
  baseline: 'a baseline or comparison',
  background: 'background or a citation',
  name: 'part of a URL, model or dataset name',
  clash: 'a different method with the same name',
};

/** How each family is spelled out, when it has a fixed expansion: an expansion the paper gives that differs is a name clash. */
const EXPANSIONS: Readonly<Record<string, RegExp | null>> = {
  GRPO: /group relative policy optimi[sz]ation/i,
  DAPO: /decoupled clip and dynamic s?ampling/i,
  GSPO: /group sequence policy optimi[sz]ation/i,
  GMPO: /geometric[- ]mean policy optimi[sz]ation/i,
  GPG: /group policy gradient/i,
  GVPO: /group variance policy optimi[sz]ation/i,
  GiGPO: /group[- ]in[- ]group policy optimi[sz]ation/i,
  RLOO: /leave[- ]one[- ]out/i,
  PRIME: /process reinforcement through implicit rewards?/i,
  DisCO: /discriminative constrained optimi[sz]ation/i,
  VAPO: /value[- ]model[- ]based augmented/i,
  CISPO: /clipped IS[- ]weight/i,
  'Dr. GRPO': /GRPO done right/i,
  RLVR: /verifiable rewards?/i,
};

/** Family cues that name a family (PPO and plain REINFORCE name none), global copies to find every occurrence. */
const FAMILY_NAMES = new Set(FAMILY_CUES.map((c) => c.name));
const CUES = FAMILY_CUES.filter((c) => c.family !== null).map((c) => ({
  ...c,
  family: c.family!,
  all: new RegExp(c.re.source, c.re.flags.includes('g') ? c.re.flags : `${c.re.flags}g`),
}));

// ---- what the words before and after a name say about its role ----

/** A comparison ending just before the name: "outperforms GRPO", "baselines, like PPO and GRPO", "improvements over GRPO". */
const BASELINE_BEFORE =
  /\b(?:outperform\w*|surpass\w*|beat\w*|exceed\w*|compared? (?:to|with|against)|comparisons? (?:to|with|against)|relative to|versus|vs\.?|unlike|instead of|rather than|alternatives? to|baselines?|competitive with|on par with|match(?:es)?|differences? (?:between|from)|bridg\w* (?:between|to)|beyond|without|no need for|contrast\w*|in place of|(?:improvements?|gains?|advantages?|superiority) over)\b(?:[^.;:]|\.\d){0,60}$|\b(?:than|over|against)\s+(?:the\s+|standard\s+|vanilla\s+|strong\s+|both\s+)?(?:[\w-]+,?\s+){0,4}\(?$/i;
/** "GRPO baselines", "GRPO-based baseline". */
const BASELINE_AFTER = /^[\s-]*(?:\w+[\s-]+){0,2}?baselines?\b|^\s*(?:is|are) (?:unavailable|absent|not available)/i;
/** Background: "such as GRPO", "e.g., DAPO", "popular methods like GRPO", "existing GRPO-based methods". */
const BACKGROUND_BEFORE =
  /\b(?:such as|e\.g\.|i\.e\.|including|like|popular\w*|prevalent|widely[- ]used|widely adopted|existing|prior|previous|recent|mainstream|conventional|traditional|typical\w*|representative|paradigms? (?:of|like))\b[^.;:]{0,50}$/i;
/** A variant: "a modified version of GRPO", "extends DAPO", "built on GRPO", "replaces ... in GRPO". */
const VARIANT_BEFORE =
  /\b(?:(?:variant|extension|modification|modified version|improved version|version|generali[sz]ation|adaptation|refinement|enhancement)s? of|extend\w*|build\w* (?:up)?on|built (?:up)?on|on top of|based on|upon|modif(?:y|ies|ied|ying)|improv\w* (?:up)?on|generali[sz]\w*|augment\w*|enhanc\w*|(?:integrat|incorporat|plug|insert|inject)\w* [^.;]{0,40}?into|replac\w* [^.;]{0,40}? in)\s+(?:the\s+|a\s+)?(?:standard\s+|vanilla\s+|original\s+|existing\s+|popular\s+)?$/i;
/** "a GRPO variant", "GRPO-style", "GRPO-based framework" (in the authors' own sentence). */
const VARIANT_AFTER =
  /^[\s-]*(?:variant|extension|adaptation|modification|-?based (?:method|algorithm|framework|approach|objective)|-?style (?:method|algorithm|objective))\b/i;
/** Training with it: "trained with GRPO", "we adopt DAPO", "optimised via GRPO", "using RLVR". */
const TRAINS_BEFORE =
  /(?:\b(?:train\w*|fine-?tun\w*|optimi[sz]\w*|post-train\w*|learn\w*|updat\w*|align\w*|tun\w*|improv\w*|RL)\b[^.;:]{0,50}?\b(?:with|via|using|through|by|under)|\b(?:use|uses|used|using|adopt\w*|employ\w*|apply|applies|applied|applying|leverag\w+|utili[sz]\w+|run|runs|implement\w*|follow\w*|via|through|with|under))\s+(?:the\s+|a\s+|an\s+|our\s+)?(?:[\w-]+\s+){0,2}$/i;
/** "GRPO training", "GRPO-trained", "during GRPO optimization" (not "the GRPO objective": that is what a paper studies). */
const TRAINS_AFTER =
  /^\s*(?:\([^)]*\)\s*)?(?:is|are|was|were) (?:then |further |finally )?(?:applied|used|adopted|employed|leveraged|utili[sz]ed|performed|conducted|run)\b|^[\s-]*(?:based\s+|style\s+)?(?:[\w-]+\s+){0,2}?(?:training|fine-?tuning|post-training|optimi[sz]ation|stage|phase|trained|tuned|recipe|pipeline|updates?|runs?|rewards?)\b/i;
/** "GRPO is then applied", "(GRPO) is used to ...": the paper's pipeline told in the passive. */
const PASSIVE_USE =
  /^\s*(?:\([^)]*\)\s*)?(?:is|are) (?:then |further |finally |subsequently )?(?:applied|used|adopted|employed|leveraged|utili[sz]ed|performed|conducted)\b/i;
/** A sentence about the field, not the paper: "GRPO has become the standard ...", "Recent advances in RLVR ...". */
const FRAMING =
  /\b(?:ha(?:s|ve) (?:become|emerged|shown|gained|demonstrated|attracted|achieved|enabled|proven|driven)|emerg\w* as|popular\w*|widely|dominant|de facto|standard|paradigm|recent\w*|advances?|success\w*|prevalent|mainstream|existing|prior|previous|current|often|commonly|typically|usually)\b/i;
/** After an R1-style name: a model, not a recipe ("R1-style distilled models", "DeepSeek-R1-Zero"). */
const MODEL_AFTER = /^[\s-]*(?:[\w-]+\s+){0,2}?(?:models?|LRMs?|LLMs?|reasoners?|checkpoints?)\b/i;

/**
 * RL from verifiable rewards, said without the name: "rule-based rewards", "outcome-based RL",
 * "a reward for answer correctness". It counts for RLVR only in the authors' own sentences.
 */
const VERIFIABLE_REWARD =
  /\bverifiable (?:execution )?(?:feedback|ground truth|tasks?)\b|\b(?:correctness|execution|test)[- ](?:feedback|rewards?|signals?)\b|\bexecution-reward\b|\brewards?\b[^.;]{0,40}\b(?:answer|final-answer|task) (?:correctness|accuracy)\b|\boutcome verification\b|\bverified (?:rollouts|trajectories)\b|\brule-based (?:outcome )?(?:rewards?|reward functions?|reinforcement learning|RL)\b|\boutcome[- ](?:based |level |supervised |driven )?(?:rewards?|reinforcement learning|RL)\b|\b(?:format|accuracy|correctness|exact[- ]match|execution|unit[- ]test|test[- ]case|verifier)(?:-based)? rewards?\b|\brewards? for (?:answer )?correctness\b|\bverifiable (?:rewards?|outcomes?|outcome rewards?)\b/i;
/** The reward phrase is what the paper moves away from: "outcome-only reward", "without verifiable rewards". */
const REWARD_CONTRAST =
  /\b(?:outcome-only|beyond|without|instead of|rather than|unlike|alternative to|unavailable|lack\w*|cannot|no)\b/i;
/** A sentence about a difficulty or about training a reward model, not about the paper's own rewards. */
const REWARD_ASIDE =
  /\b(?:is|are|remains?) challenging\b|\bill-suited\b|\bimpractical\b|\bcostly\b|\bexpensive\b|\bprone\b|\breward models?\b|\bGRMs?\b|\bjudges?\b/i;

/** Post-training of a model, which places a family's acronym in the field even without RL words. */
const POST_TRAINING = /\bSFT\b|\bpost-?train\w*|\bfine-?tun\w*/i;

// ---- helpers ----

/** Sentences of an abstract; "e.g.", "i.e.", "vs." and "Dr. GRPO" do not end one. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])(?<!\b(?:e\.g|i\.e|vs|al|Dr|cf)\.)\s+(?=[A-Z0-9"“(])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The whitespace-delimited token a match sits in. */
function tokenAround(s: string, start: number, end: number): { token: string; before: string; after: string } {
  let a = start;
  let b = end;
  while (a > 0 && !/\s/.test(s[a - 1]!)) a--;
  while (b < s.length && !/\s/.test(s[b]!)) b++;
  return { token: s.slice(a, b), before: s.slice(a, start), after: s.slice(end, b) };
}

/** The words around a match, at most ~70 characters each side, cut at word boundaries. */
function phraseAround(s: string, start: number, end: number): string {
  // Cut at word boundaries, unless the phrase reaches the sentence's start or end anyway.
  const left = start > 70 ? s.slice(start - 70, start).replace(/^\S*\s/, '') : s.slice(0, start);
  const right = end + 70 < s.length ? s.slice(end, end + 70).replace(/\s\S*$/, '') : s.slice(end);
  const pre = start > 70 ? '…' : '';
  const post = end + 70 < s.length ? '…' : '';
  return `${pre}${left}${s.slice(start, end)}${right}${post}`.replace(/\s+/g, ' ').trim();
}

/** Names the paper gives its own method or model: the title's "Name:" and what the authors propose or introduce. */
export function ownNames(title: string, abstract: string): string[] {
  const names = new Set<string>();
  const t = OWN_NAME.exec(title)?.[1];
  if (t) names.add(t.split(' ')[0]!);
  const propose =
    /\b(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design|build|call)s?\b[^.;]{0,120}/gi;
  for (const m of abstract.matchAll(propose)) {
    // The word right after the verb ("we propose Intuitor"), and every acronym-like token in the clause ("(KTAE)", "Trust-GRPO").
    const first =
      /^(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design|build|call)s?\s+(?:the |a |an )?([A-Z][\w.+-]*[A-Za-z0-9+])(?![\w-])(?!\s+[A-Z(])/i.exec(
        m[0],
      )?.[1];
    if (first) names.add(first);
    for (const n of m[0].matchAll(/(?<![\w-])([A-Z][\w.+-]*[A-Za-z0-9+])(?![\w-])/g)) {
      const name = n[1]!;
      if (!/[A-Z].*[A-Z]|-/.test(name)) continue;
      // A family's name is the paper's own only when the paper defines it: "(GSPO)", not "a GRPO variant".
      if (FAMILY_NAMES.has(name) && m[0][n.index - 1] !== '(') continue;
      if (name.length > 2 && !/^(?:RL|LLMs?|MLLMs?|LRMs?|VLMs?|SFT|RFT|DPO|PPO|CoT|AI|RLHF|RLVR)$/.test(name))
        names.add(name);
    }
  }
  return [...names];
}

/** An expansion the paper gives for a name: "Flow-based Group Refined Policy Optimization (Flow-GRPO)" or "GSPO (Group Sequence ...)". */
function givenExpansion(s: string, start: number, end: number): string | null {
  if (s[start - 1] === '(' || s.slice(Math.max(0, start - 2), start) === '( ') {
    const words = s
      .slice(0, start)
      .replace(/\s*\(\s*$/, '')
      .split(/\s+/)
      .slice(-7)
      .join(' ');
    return /(?:\b[A-Z][\w-]*\s+){2,}[A-Z][\w-]*$/.test(words) ? words : null;
  }
  const after = /^\s*\(([^)]{8,90})\)/.exec(s.slice(end));
  return after && /^(?:[A-Z][\w-]*\s+){2,}/.test(after[1]!) ? after[1]! : null;
}

interface Context {
  owned: boolean;
  own: string[];
  rlContext: boolean;
}

/** The role of one occurrence of a family name in a sentence (or the title). */
function roleOf(
  c: (typeof CUES)[number],
  s: string,
  start: number,
  end: number,
  where: 'title' | 'abstract',
  ctx: Context,
): FamilyRole {
  const { token, before: tokBefore, after: tokAfter } = tokenAround(s, start, end);
  if (/\/|https?:|www\.|\.(?:com|org|io|ai)\b/i.test(token)) return 'name';
  // A model, dataset or repository: "DAPO-Math-17k", "Qwen2.5-7B-GRPO", "PRIME-RL".
  if (/^-(?:\d|Math\b|RL\b|Zero\b|R1\b|[A-Z][a-z]+-\d|\d+(?:\.\d+)?[BbKkMm]\b)/.test(tokAfter)) return 'name';
  if (/\d/.test(tokBefore) && /-$/.test(tokBefore)) return 'name';
  if (c.name === 'R1-style RL' && (MODEL_AFTER.test(s.slice(end)) || /[A-Za-z]-$/.test(tokBefore))) return 'name';
  if (c.needsContext && !ctx.rlContext) return 'clash';
  const expansion = givenExpansion(s, start, end);
  if (expansion && c.family in EXPANSIONS ? !EXPANSIONS[c.family]!.test(expansion) : expansion !== null) return 'clash';

  const before = s.slice(0, start);
  const after = s.slice(end);
  const ownToken = ctx.own.some((n) => token.includes(n) && n !== s.slice(start, end));
  const isOwnName = ctx.own.some((n) => n.toLowerCase() === s.slice(start, end).toLowerCase());
  if (where === 'title') {
    if (BASELINE_BEFORE.test(before)) return 'baseline';
    if (isOwnName) return 'defining';
    return ownToken || /-\w/.test(tokAfter) || /\w-$/.test(tokBefore) ? 'variant' : 'subject';
  }
  if (BASELINE_BEFORE.test(before) || BASELINE_AFTER.test(after)) return 'baseline';
  if (isOwnName && ctx.owned) return 'defining';
  if (ownToken) return 'variant';
  // A method named after the family ("DAGRPO", "CA-GRPO", "Fed-GRPO"), not set against or framed as the field's.
  if (/[A-Za-z]-?$/.test(tokBefore) && !BACKGROUND_BEFORE.test(before) && !FRAMING.test(s)) return 'variant';
  // A sentence without "we" or the paper's own name: background, unless it plainly describes training
  // ("the policy is trained with GRPO", "a targeted round of GRPO is applied") and does not frame the field.
  if (!ctx.owned) {
    // "Yet training a curator with GRPO can ...", "... via RLVR is effective but limited by ...": what the paper argues against.
    if (BACKGROUND_BEFORE.test(before) || FRAMING.test(s) || RESERVATION.test(s)) return 'background';
    if (VARIANT_BEFORE.test(before) || VARIANT_AFTER.test(after)) return 'variant';
    if (TRAINS_BEFORE.test(before) || TRAINS_AFTER.test(after)) return 'trains-with';
    if (/\b(?:rounds?|stages?|phases?) of\s+$/i.test(before) || PASSIVE_USE.test(after)) return 'trains-with';
    if (
      /\b(?:trained|fine-?tuned|optimi[sz]ed|post-trained)\s+(?:\w+\s+){0,3}?(?:with|via|using|through|by)\s+(?:the\s+)?$/i.test(
        before,
      )
    )
      return 'trains-with';
    return 'background';
  }
  if (VARIANT_BEFORE.test(before) || VARIANT_AFTER.test(after)) return 'variant';
  if (BACKGROUND_BEFORE.test(before)) return 'background';
  if (TRAINS_BEFORE.test(before) || TRAINS_AFTER.test(after)) return 'trains-with';
  return 'subject';
}

/** Every occurrence of every family name, with its role. */
export function familyMentions(title: string, abstract: string): FamilyMention[] {
  const own = ownNames(title, abstract);
  // Post-training words place an acronym in the field too ("SFT achieves ... and GRPO achieves ...").
  const rlContext = RL_CONTEXT.test(`${title}\n${abstract}`) || POST_TRAINING.test(`${title}\n${abstract}`);
  const units: { text: string; where: 'title' | 'abstract' }[] = [
    { text: title, where: 'title' },
    ...sentences(abstract).map((text) => ({ text, where: 'abstract' as const })),
  ];
  const out: FamilyMention[] = [];
  for (const u of units) {
    const owned = u.where === 'title' || FIRST_PERSON.test(u.text) || own.some((n) => u.text.includes(n));
    // The most specific name wins a span: "Flow-GRPO" is not also "GRPO" (cues are ordered that way).
    let rest = u.text;
    for (const c of CUES) {
      for (const m of rest.matchAll(c.all)) {
        const start = m.index;
        const end = start + m[0].length;
        const role = roleOf(c, u.text, start, end, u.where, { owned, own, rlContext });
        out.push({ family: c.family, role, where: u.where, phrase: phraseAround(u.text, start, end) });
      }
      rest = rest.replace(c.all, (x) => ' '.repeat(x.length));
    }
    // RLVR said without its name, in a sentence about the paper's own training (the first one frames the field).
    const about = owned || (u !== units[1] && !FRAMING.test(u.text) && !BACKGROUND_BEFORE.test(u.text));
    if (u.where === 'abstract' && about) {
      const m = VERIFIABLE_REWARD.exec(u.text);
      if (
        m &&
        !REWARD_CONTRAST.test(u.text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 30)) &&
        !REWARD_ASIDE.test(u.text)
      )
        if (!BASELINE_BEFORE.test(u.text.slice(0, m.index)))
          out.push({
            family: 'RLVR',
            role: 'trains-with',
            where: 'abstract',
            phrase: phraseAround(u.text, m.index, m.index + m[0].length),
          });
    }
  }
  groupRelative(out, units);
  for (const n of own) {
    // The paper's own method written as one word with the family's acronym first ("GRPODropout"), which the cues' word boundary misses.
    const family = /^(GRPO|DAPO|GSPO|GMPO|GVPO|CISPO|RLOO)(?=[A-Z][a-z])/.exec(n)?.[1];
    const unit = family ? units.find((u) => u.text.includes(n)) : undefined;
    if (family && unit) {
      const at = unit.text.indexOf(n);
      out.push({ family, role: 'variant', where: unit.where, phrase: phraseAround(unit.text, at, at + n.length) });
    }
  }
  rlvrSetting(out, sentences(abstract), trainsWithRl(title, abstract, own));
  return out;
}

/** The authors train with RL themselves: an own sentence that says so ("we train ... with RL", "an RL framework"). */
function trainsWithRl(title: string, abstract: string, own: readonly string[]): boolean {
  const rl = /\b(?:reinforcement learning|RL)\b/;
  const doing =
    /\b(?:train\w*|fine-?tun\w*|optimi[sz]\w*|post-train\w*|framework|recipe|algorithm|objective)\b|\b(?:RL|reinforcement learning)[- ](?:training|fine-?tuning|framework|stage)\b/i;
  return [title, ...sentences(abstract)].some(
    (s, i) => (i === 0 || FIRST_PERSON.test(s) || own.some((n) => s.includes(n))) && rl.test(s) && doing.test(s),
  );
}

/** GRPO described without its name: "group-relative policy learning", "group-derived advantages", "Group Policy Optimization". */
const GROUP_RELATIVE =
  /(?<![\w-])group[- ](?:relative|based|normali[sz]ed|derived)\s+(?:local\s+)?(?:policy (?:optimi[sz]ation|learning)|reinforcement learning|RL|advantages?)\b|\bgroup policy optimi[sz]ation\b/i;

/** GRPO by description, in a sentence about the paper's own method, when no sentence names GRPO as its own. */
function groupRelative(out: FamilyMention[], units: readonly { text: string; where: 'title' | 'abstract' }[]): void {
  if (out.some((m) => m.family === 'GRPO' && MEMBER_ROLES.includes(m.role))) return;
  for (const u of units.slice(1)) {
    const m = GROUP_RELATIVE.exec(u.text);
    // The name spelled out is a mention like any other (its role is decided there); an aside is no description of the method.
    if (!m || /GRPO/.test(u.text) || (!FIRST_PERSON.test(u.text) && (FRAMING.test(u.text) || RESERVATION.test(u.text))))
      continue;
    if (BASELINE_BEFORE.test(u.text.slice(0, m.index)) || BACKGROUND_BEFORE.test(u.text.slice(0, m.index))) continue;
    if (REWARD_CONTRAST.test(u.text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 30))) continue;
    out.push({
      family: 'GRPO',
      role: 'trains-with',
      where: u.where,
      phrase: phraseAround(u.text, m.index, m.index + m[0].length),
    });
    return;
  }
}

/** RLVR as where the paper's own work sits: "in RLVR", "for stable RLVR", "RLVR frameworks", "During RLVR". */
const RLVR_SETTING =
  /\b(?:in|for|during|within|into|to)\s+(?:the\s+)?(?:(?:stable|agentic|standard|online|multimodal|efficient)\s+)?(?:RLVR|reinforcement learning (?:with|from) verifiable rewards?)\b|\bRLVR[- ](?:training|frameworks?|post-training|settings?|pipelines?|recipes?)\b/i;

/** A first sentence that frames the paper without reservation ("RLVR has emerged as ..."), not one that criticises what it names. */
const RESERVATION =
  /\b(?:but|however|yet|limit\w*|struggl\w*|suffer\w*|costly|expensive|reli\w+|rely|lack\w*|fail\w*|without)\b/i;

/**
 * RLVR as the setting: a paper that proposes or trains with a method of the family (a GRPO variant)
 * and opens by placing itself in RL from verifiable rewards works in RLVR, unless it sets RLVR
 * against something anywhere (then RLVR is what it moves away from).
 */
function rlvrSetting(out: FamilyMention[], units: readonly string[], ownRl: boolean): void {
  const rlvr = out.filter((m) => m.family === 'RLVR');
  if (rlvr.some((m) => MEMBER_ROLES.includes(m.role) || m.role === 'baseline' || m.role === 'clash')) return;
  if (!ownRl && !out.some((m) => m.family !== 'RLVR' && MEMBER_ROLES.includes(m.role))) return;
  const [first = ''] = units;
  const found = openingSetting(first) ?? laterSetting(units);
  if (found)
    out.push({
      family: 'RLVR',
      role: 'setting',
      where: 'abstract',
      phrase: phraseAround(found.unit, found.at, found.end),
    });
}

type Found = { unit: string; at: number; end: number } | undefined;

/** A first sentence placing the paper in RLVR without reservation. */
function openingSetting(first: string): Found {
  if (RESERVATION.test(first) || REWARD_CONTRAST.test(first)) return undefined;
  const m =
    /\bRLVR\b|\breinforcement learning (?:with|from) verifiable rewards?\b/i.exec(first) ??
    VERIFIABLE_REWARD.exec(first);
  return m ? { unit: first, at: m.index, end: m.index + m[0].length } : undefined;
}

/** Or any sentence placing the paper's work in it: "credit assignment in RLVR", "During RLVR", "RLVR frameworks". */
function laterSetting(units: readonly string[]): Found {
  for (const u of units) {
    const w = RLVR_SETTING.exec(u);
    if (!w) continue;
    const around = u.slice(Math.max(0, w.index - 40), w.index + w[0].length + 40);
    if (!REWARD_CONTRAST.test(around) && !BASELINE_BEFORE.test(u.slice(0, w.index)))
      return { unit: u, at: w.index, end: w.index + w[0].length };
  }
  return undefined;
}

const RANK: Record<FamilyRole, number> = {
  defining: 0,
  variant: 1,
  'trains-with': 2,
  subject: 3,
  setting: 4,
  baseline: 4,
  background: 5,
  name: 6,
  clash: 7,
};

/** The families the paper belongs to, in order of first mention, each with its strongest role and the phrase that decided it. */
export function familyMembers(title: string, abstract: string): FamilyMember[] {
  const best = new Map<string, FamilyMention>();
  for (const m of familyMentions(title, abstract)) {
    if (!MEMBER_ROLES.includes(m.role)) continue;
    const prev = best.get(m.family);
    if (!prev || RANK[m.role] < RANK[prev.role]) best.set(m.family, m);
  }
  return [...best.values()].map((m) => ({
    family: m.family,
    role: m.role,
    reason: `${ROLE_WORDS[m.role]}: “${m.phrase}”`,
  }));
}

/** Why a family name the paper mentions does not make it a member, for explanations ("DAPO: a baseline or comparison"). */
export function roleWords(role: FamilyRole): string {
  return ROLE_WORDS[role];
}
