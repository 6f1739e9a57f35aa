/**
 * Rules-based GRPO-family classifier. Pure and deterministic: the same title and abstract always
 * give the same classification, with human-readable reasons for every point of score.
 *
 * Positive: a paper that proposes, modifies, analyses or applies critic-free / group-relative /
 * REINFORCE-style policy optimisation for LLMs, VLMs or agents, trains a model with RL from
 * verifiable rewards (R1-style, even as one stage), runs PPO-style RL with verifiable or process
 * rewards, builds infrastructure, environments, datasets or reward models for such training,
 * surveys the field, or applies GRPO-style RL to image, video or audio generators.
 *
 * How it decides: family names, field phrases and "we train it with RL" statements add evidence
 * (title more than abstract); cues of the excluded categories (DPO-only, training-free test-time
 * scaling, SFT-only distillation, benchmarks, classic robotics/game RL, name clashes) subtract it.
 * Most negative cues only apply when the paper shows little RL training of its own, because real
 * RL papers also mention DPO baselines, distilled models and benchmarks.
 */
import {
  CHAT_ALIGNMENT,
  CLASSIC_RL_DOMAIN,
  FAMILY_CUES,
  FIRST_PERSON,
  GENERATOR_CONTEXT,
  LLM_CONTEXT,
  NEGATIVE_CUES,
  OWN_NAME,
  POSITIVE_CUES,
  REASONING_TASK,
  RL_CONTEXT,
  RL_CONTRAST,
  RL_TERM,
  SURVEY_TITLE,
  type Cue,
} from './lexicon.ts';
import { assignTopics, type TopicSlug } from './topics.ts';
import {
  classicRlWithLlmNearby,
  judgeNegative,
  LM_TRAINING_CONTEXT,
  NOT_RL_TRAINED,
  readAuthors,
  trainsWithName,
} from './authors.ts';
import { featureReason, features, logit, MODEL, type LearnedModel } from './learned.ts';
import { familyMembers, type FamilyMember } from './roles.ts';

/** What the classifier reads of a paper. */
export interface ClassifierInput {
  title: string;
  abstract: string;
}

export interface Classification {
  grpoFamily: boolean;
  /** 0..1; `grpoFamily` is `score >= DECISION_THRESHOLD`. */
  score: number;
  /** Family members the paper belongs to (GRPO, DAPO, RLVR, ...); empty for negatives. */
  families: string[];
  topics: TopicSlug[];
  /** What matched and where, strongest first: 'title: "GRPO"', 'negative: DPO-only'. */
  reasons: string[];
}

export const DECISION_THRESHOLD = 0.5;

/**
 * Bump when the rules, lexicon or topics change: the poll job then re-classifies every stored
 * paper once, so an upgrade improves old papers too, not only new ones.
 */
export const RULES_VERSION = '2026-11-28.1';

/**
 * Scores in this range are the rules' least certain calls; an optional LLM adjudicator may
 * re-decide them when a key is configured. Outside it, the rules stand.
 */
export const GREY_ZONE = { min: 0.3, max: 0.7 } as const;

/** Raw evidence at which the score crosses 0.5, and how steeply it does. */
const BIAS = 2.5;
const SCALE = 0.9;
/** Below this much RL-training evidence, the gated negative cues apply. */
const TRAINING_GATE = 2.5;
/** Family mentions beyond this add nothing: a paper comparing five variants is not five times as positive. */
const FAMILY_CAP = 6;
const MAX_REASONS = 8;
/** An own sentence saying RL is how the model is trained ("we use RL to train"): stronger than naming RL. */
const OWN_RL_TRAINING = 1.4;
/** Raw evidence ceiling when no language model or generator is trained: a score of about 0.14. */
const NO_MODEL_CAP = BIAS - 2;

export interface Evidence {
  weight: number;
  reason: string;
  /** A stable name for the rule that fired (`family:GRPO`, `cue:clip-higher`, `neg:DPO-only`): the learned model's features. */
  key: string;
}

/** What the rules found in a paper, before any decision: their evidence, its sum, and the family names. */
export interface RuleEvidence {
  /** False when the text has no possible positive evidence (most of a day's listing): nothing else was computed. */
  any: boolean;
  evidence: Evidence[];
  /** The rules' raw evidence (capped when no language model is trained). */
  raw: number;
  families: string[];
  title: string;
  abstract: string;
}

// Global copies of the family patterns, used to blank out a matched name so that "Flow-GRPO"
// is not counted again as "GRPO". Built once: classification must stay fast.
const CHAT_ALIGNMENT_GLOBAL = new RegExp(CHAT_ALIGNMENT.source, 'gi');
const FAMILY_GLOBAL = FAMILY_CUES.map(
  (c) => new RegExp(c.re.source, c.re.flags.includes('g') ? c.re.flags : `${c.re.flags}g`),
);

/**
 * Every way a paper can earn positive evidence, as one case-insensitive pattern: the family names,
 * the field's phrases and RL named at all. It matches at least whatever any positive cue matches, so
 * a paper it does not match has no positive evidence, can only score below the decision threshold,
 * and is answered without running the cues one by one. Most of a day's arXiv listing is such a
 * paper, which is what makes ingesting a full listing fast.
 */
const ANY_POSITIVE = new RegExp(
  [...FAMILY_CUES, ...POSITIVE_CUES, { re: RL_TERM }, { re: /\breward/ }].map((c) => `(?:${c.re.source})`).join('|'),
  'i',
);

/**
 * The score of a paper with no positive evidence at all, most of a day's listing: the surest "out" there is, so
 * it sits below every paper with evidence and below the judge's band (src/services/relevance/judge.ts), which
 * reaches down to the learned model's low scores without sending the whole listing to the judge.
 */
const NO_EVIDENCE_SCORE = 0.001;

export function classifyPaper(paper: ClassifierInput): Classification {
  return decide(ruleEvidence(paper));
}

/**
 * The key-less decision: the learned model's probability over the rules' evidence and the paper's
 * words (learned.ts). A paper with no possible positive evidence is decided by the rules' fast path.
 */
export function decide(r: RuleEvidence, model: LearnedModel = MODEL): Classification {
  const rules = decideByRules(r);
  if (!r.any) return rules;
  const { logit: z, top } = logit(features(r), model);
  // Shifted so the model's threshold lands on DECISION_THRESHOLD: a score means the same everywhere.
  const score = round3(1 / (1 + Math.exp(-(z - Math.log(model.threshold / (1 - model.threshold))))));
  const grpoFamily = score >= DECISION_THRESHOLD;
  const learnedReasons = top
    .filter(([, c]) => Math.abs(c) >= 0.3)
    .slice(0, 2)
    .map(featureReason);
  return {
    ...rules,
    grpoFamily,
    score,
    families: grpoFamily ? r.families : [],
    reasons: [...rules.reasons.slice(0, MAX_REASONS - learnedReasons.length), ...learnedReasons],
  };
}

/** The rules' decision alone (the learned model's input and the baseline it is compared with). */
export function decideByRules(r: RuleEvidence): Classification {
  if (!r.any)
    return {
      grpoFamily: false,
      score: NO_EVIDENCE_SCORE,
      families: [],
      topics: [],
      reasons: ['no RL or GRPO-family evidence found'],
    };
  const score = round3(1 / (1 + Math.exp(-(r.raw - BIAS) * SCALE)));
  const grpoFamily = score >= DECISION_THRESHOLD;
  return {
    grpoFamily,
    score,
    families: grpoFamily ? r.families : [],
    topics: assignTopics(r.title, r.abstract),
    reasons: r.evidence.length > 0 ? topReasons(r.evidence) : ['no RL or GRPO-family evidence found'],
  };
}

export function ruleEvidence({ title, abstract }: ClassifierInput): RuleEvidence {
  const t = normalise(title);
  const a = normalise(abstract);
  const all = `${t}\n${a}`;
  if (!ANY_POSITIVE.test(all)) return { any: false, evidence: [], raw: 0, families: [], title: t, abstract: a };
  const evidence: Evidence[] = [];
  const add = (weight: number, reason: string, key: string) => evidence.push({ weight, reason, key });

  const rlContext = RL_CONTEXT.test(all);
  const modelContext = LLM_CONTEXT.test(all) || GENERATOR_CONTEXT.test(all) || LM_TRAINING_CONTEXT.test(all);
  // Sentences the authors own: first person, or naming the method the title introduces ("Tina: ...").
  const ownName = OWN_NAME.exec(t)?.[1];
  const isOwn = (s: string) =>
    FIRST_PERSON.test(s) || (ownName !== undefined && ownName.length > 2 && s.includes(ownName));
  const written = readAuthors(a, isOwn);

  // 1. Family names (evidence for the score wherever they stand; membership is decided by role, roles.ts).
  const counted = new Set<string>();
  let familyWeight = 0;
  let training = 0;
  let strongFamily = false;
  let tRest = t;
  let aRest = a;
  // The text with clashing names blanked: "RL named in n sentences" must not count the clash itself.
  let tRl = t;
  let aRl = a;
  FAMILY_CUES.forEach((c, i) => {
    const hit = firstHit(c, tRest, aRest);
    if (!hit) return;
    // "We optimise the generator with GRPO" is RL context enough, even with no other RL word; and a GRPO
    // name next to a language model or generator is one (its clashes are portfolio and radar methods).
    const context = rlContext || trainsWithName(written, c.re) || (modelContext && c.name.includes('GRPO'));
    if (c.needsContext && !context) {
      add(-1, `negative: name clash ("${hit.text}" without any RL context)`, 'neg:name-clash');
      // In any case: "Reinforce-DMD" is the same clashing name as "REINFORCE".
      const name = new RegExp(c.re.source, 'gi');
      tRl = tRl.replace(name, (m) => ' '.repeat(m.length));
      aRl = aRl.replace(name, (m) => ' '.repeat(m.length));
      return;
    }
    // A family counts once however it is spelled (RLVR, "verifiable rewards"); other members add up to the cap.
    if (!counted.has(c.name)) {
      counted.add(c.name);
      const weight = Math.min(hit.weight, FAMILY_CAP - familyWeight);
      familyWeight += weight;
      if (weight > 0) add(weight, `${hit.where}: "${hit.text}"`, `family:${c.name}`);
      if (c.strong) {
        strongFamily = true;
        training += hit.weight;
      }
    }
    const re = FAMILY_GLOBAL[i]!;
    tRest = tRest.replace(re, (m) => ' '.repeat(m.length));
    aRest = aRest.replace(re, (m) => ' '.repeat(m.length));
  });

  // 2. Field phrases and training statements.
  for (const c of POSITIVE_CUES) {
    const hit = firstHit(c, t, a);
    if (!hit) continue;
    add(hit.weight, `${hit.where}: "${hit.text}"`, `cue:${c.name}`);
    if (c.kind !== 'background') training += hit.weight;
  }

  // 3. How much the paper talks about RL, and whether it claims to do it.
  const rlTitle = RL_TERM.exec(tRl);
  if (rlTitle) add(1.5, `title: "${rlTitle[0]}"`, 'rl:title');
  const authors = aRl === a ? written : readAuthors(aRl, isOwn);
  const rlSentences = authors.sentences.filter((s) => RL_TERM.test(s));
  if (rlSentences.length > 0)
    add(
      Math.min(1.5, 0.6 + 0.3 * (rlSentences.length - 1)),
      `abstract: RL named in ${rlSentences.length} sentence(s)`,
      'rl:sentences',
    );
  const ownRl = rlSentences.filter(isOwn);
  // A survey whose title is about RL or rewards, of language models or generators, surveys this field.
  if (SURVEY_TITLE.test(t) && (RL_TERM.test(t) || /\breward/i.test(t)) && modelContext)
    add(1.5, 'title: survey of RL for language models', 'survey:rl');

  // 4. Excluded categories. A cue saying the authors do not train with RL is judged from its sentence
  // (authors.ts): set aside when they say elsewhere that they do, unless the paper claims it for itself.
  const weakTraining = training < TRAINING_GATE;
  let notTrained = false;
  let noRl = false;
  for (const c of NEGATIVE_CUES) {
    if (c.gated && !weakTraining) continue;
    const hit = firstHit(c, t, a);
    if (!hit || hit.weight >= 0) continue;
    if (!judgeNegative(c, hit.where, authors, isOwn).counts) continue;
    add(hit.weight, `negative: ${c.name}`, `neg:${c.name}`);
    if (NOT_RL_TRAINED.has(c.name)) notTrained = true;
    if (c.name === 'no RL') noRl = true;
  }
  // What the authors do with RL, consistent with the negatives that stood: not "no RL" next to "they apply
  // RL", nor "training-free" next to "they train with RL". Not counted as training evidence for the gate
  // above: the sentence may train a small helper (an "RL navigator") while the language model stays frozen.
  if (noRl) {
    // The RL sentences are about what the paper avoids.
  } else if (!notTrained && authors.rlTraining.length > 0)
    add(OWN_RL_TRAINING, 'abstract: the authors train with RL', 'own:train');
  else if (ownRl.some((s) => !RL_CONTRAST.test(s))) add(0.8, 'abstract: the authors apply RL themselves', 'own:apply');
  if (SURVEY_TITLE.test(t) && !RL_TERM.test(t) && !strongFamily && !/\breward/i.test(t)) {
    add(-2.5, 'negative: survey outside RL for LLMs', 'neg:survey');
  }
  // RL that trains no language model or generator is outside the field however much RL vocabulary it uses,
  // so this one is decisive (the score is capped below). GRPO, DAPO, RLVR and the like exist only for
  // language models and generators, so naming one is context enough.
  const noModel = !modelContext && !strongFamily && (rlContext || familyWeight > 0);
  if (noModel)
    add(
      -4,
      CLASSIC_RL_DOMAIN.test(all)
        ? 'negative: classic deep RL (robotics/games), no language model'
        : 'negative: no language model or generator is trained',
      'neg:no-model',
    );
  // Classic RL with a language model in the loop (a PPO controller an LLM orchestrates, an agent that
  // calls API models) is decisive the same way: the language model is not what RL trains.
  const llmNearby = !noModel && !strongFamily && !LM_TRAINING_CONTEXT.test(all) && classicRlWithLlmNearby(t, authors);
  if (llmNearby)
    add(-4, 'negative: classic RL with a language model in the loop, which RL does not train', 'neg:llm-nearby');
  const checkableReward = evidence.some(
    (e) =>
      /verifi|rule-based|outcome|process|format|accuracy|correctness|execution|test|compiler|IoU|pass/i.test(
        e.reason,
      ) && e.weight > 0,
  );
  // A reasoning or coding task named in passing ("also compatible with python coding") does not make
  // chat alignment anything else: when the title itself is about chat alignment, or the abstract keeps
  // returning to it, the penalty applies anyway.
  if (!strongFamily && !checkableReward && CHAT_ALIGNMENT.test(all)) {
    const chatFocused =
      CHAT_ALIGNMENT.test(t) ||
      new Set(Array.from(all.matchAll(CHAT_ALIGNMENT_GLOBAL), (m) => m[0].toLowerCase())).size >= 3;
    if (chatFocused || !REASONING_TASK.test(all))
      add(chatFocused ? -2.5 : -1.5, 'negative: RLHF chat alignment without verifiable reward', 'neg:chat');
  }

  const sum = evidence.reduce((acc, e) => acc + e.weight, 0);
  const raw = noModel || llmNearby ? Math.min(sum, NO_MODEL_CAP) : sum;
  return { any: true, evidence, raw, families: familyMembers(t, a).map((m) => m.family), title: t, abstract: a };
}

/** The families a paper belongs to, each with the phrase that decided it (what the card shows as the reason). */
export function familyReasons({ title, abstract }: ClassifierInput): FamilyMember[] {
  return familyMembers(normalise(title), normalise(abstract));
}

interface Hit {
  where: 'title' | 'abstract';
  text: string;
  weight: number;
}

/** A cue counts once: in the title if it is there (at the title weight), else in the abstract. */
function firstHit(c: Cue, title: string, abstract: string): Hit | null {
  if (c.title !== 0) {
    const m = c.re.exec(title);
    if (m) return { where: 'title', text: m[0].trim(), weight: c.title };
  }
  if (c.abstract !== 0) {
    const m = c.re.exec(abstract);
    if (m) return { where: 'abstract', text: clip(m[0].trim()), weight: c.abstract };
  }
  return null;
}

/** Abstracts arrive with TeX markup and odd whitespace from arXiv; cues are written for plain text. */
function normalise(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\\(?:textbf|textit|emph|texttt|mathrm|text|mathbf)\{([^}]*)\}/g, '$1')
    .replace(/[$\\{}]/g, '')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Strongest evidence first (either sign), duplicates dropped, capped so a Discord embed stays short. */
function topReasons(evidence: Evidence[]): string[] {
  const sorted = [...evidence].sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight));
  return [...new Set(sorted.map((e) => e.reason))].slice(0, MAX_REASONS);
}
