/**
 * What the authors did, judged sentence by sentence (pure). The negative cues of the rules (training-free,
 * distillation, test-time scaling, SFT-only, no RL) name things a paper may only mention: "existing agents
 * are training-free pipelines", "an SFT warm-up on distilled solutions, then RL". A cue counts against a
 * paper only when the sentence it sits in is not outweighed by the authors saying, in another sentence
 * (or as a stage of the same one), that they train a model with RL. And a decision's reasons never claim
 * both sides: `contradictions` names the pairs that cannot stand together, and the tests hold every
 * labelled paper to it.
 */

/** A sentence of the authors' saying that RL (or a named group-relative algorithm) trains their model. */
export const RL_TRAINING_CLAIM =
  /\b(?:train|fine-?tun|post-train|optimi[sz]|incentiv|teach|improv|enhanc|align)\w*\b[^.]{0,80}\b(?:reinforcement learning|RL)\b|\b(?:via|through|during|using|use|uses|employ\w*|apply\w*|adopt\w*|leverag\w+|run\w*|perform\w*) (?:an? |the )?(?:[\w-]+ ){0,3}?(?:reinforcement learning|RL)\b|\b(?:then|followed by|subsequent(?:ly)?|second|final|after)\b[^.]{0,40}\b(?:reinforcement learning|RL)\b|\b(?:reinforcement learning|RL) (?:stage|phase|post-training)\b|\b(?:train|fine-?tun|post-train|optimi[sz]|tun|align)\w*\b[^.]{0,60}\b(?:with|via|using|through|by) (?:GRPO|DAPO|GSPO|RLOO|GiGPO|REINFORCE\+\+)\b/i;

/**
 * RL named as what the sentence avoids, beats or looks through, not as what the authors do: "without RL",
 * "over RL baselines", "from a reinforcement learning perspective".
 */
const RL_AVOIDED =
  /\b(?:without|instead of|rather than|unlike|alternatives?(?: to)?|need for|bypass\w*|avoid\w*|replac\w+|no|over|than|outperform\w*|surpass\w*)\b[^.]{0,60}\b(?:reinforcement learning|RL|PPO|GRPO)\b|\b(?:reinforcement learning|RL|PPO|GRPO)(?:[- ]\w+)? (?:baselines?|perspective|lens|view|formulation|framing)\b/i;

/** RL that trains a small helper next to the language model (a navigator, a router): not the model's own training. */
const RL_HELPER =
  /\b(?:lightweight|small|tiny|auxiliary|external|separate)\b[^.]{0,30}\b(?:navigator|router|selector|controller|module)s?\b|\b(?:navigator|router|selector)s?\b/i;

/** A model is being trained in the sentence (the object a group-relative acronym would train). */
const TRAINED_OBJECT =
  /\b(?:models?|generators?|LLMs?|VLMs?|polic(?:y|ies)|agents?|solvers?|reasoners?|students?|planners?)\b/i;

/** "SFT on distilled data, then RL": the negative concept is a stage before RL, not the method. */
const STAGE_BEFORE_RL =
  /\b(?:then|followed by|before|and subsequent(?:ly)?|prior to|warm[- ]?up|cold[- ]start)\b[^.]{0,60}\b(?:reinforcement learning|RL)\b|\b(?:reinforcement learning|RL)\b[^.]{0,30}\bafter\b/i;

/** The negative names what other work does, or what the authors' method is compared with. */
const ABOUT_OTHERS =
  /\b(?:unlike|instead of|rather than|than|beyond|outperform\w*|surpass\w*|exist\w*|prior|previous|conventional|current|typical(?:ly)?|most|many|recent|baselines?|compared|while)\b/i;

/** Words of training a language model that papers use even when they never write "LLM": SFT, pass@k, unit tests. */
export const LM_TRAINING_CONTEXT =
  /\bSFT\b|\bsupervised fine-?tuning\b|\binstruction[- ]tun\w+\b|\bcold[- ]start\b|\bpass@\d|\bunit[- ]tests?\b|\bcode generation\b|\bcompetitive programming\b|\btheorem proving\b|\bLiveCodeBench\b|\bHumanEval\b|\bMATH-500\b|\bCodeforces\b/i;

/** A language model used as a tool of a classic RL agent: called, queried, orchestrating, advising, shaping its rewards. */
const LLM_AS_TOOL =
  /\b(?:calls?|call(?:ing|ed)|quer(?:y|ies|ying|ied)|consult\w*|invok\w+|asks?)\b[^.]{0,60}\b(?:LLMs?|language models?|GPT-?\w*|APIs?)\b|\b(?:LLMs?|language models?)\b[^.]{0,40}\b(?:orchestrat\w+|advis\w+|guid\w+|select\w* (?:sub-?goals|rewards?)|shap\w+ (?:the )?rewards?|as (?:a |an )?(?:planner|advisor|teacher|coach|reward designer|oracle))\b|\bLLM[- ](?:guided|orchestrated|assisted|driven|generated rewards?)\b|\bAPI-based\b|\b(?:remains?|kept|stays?) (?:frozen|untrained)\b|\bfrozen (?:LLMs?|language models?|foundation models?|decision models?|VLMs?)\b/i;

/** Tasks of classic RL that also appear with an LLM nearby: control, driving, circuits, networks, defence. */
const CLASSIC_RL_TASK =
  /\bcontrol(?:ler|lers)?\b|\bdriving\b|\bCARLA\b|\blogic synthesis\b|\bcircuits?\b|\bcyber[- ]?defen[cs]e\b|\btraffic\b|\bscheduling\b|\bpower (?:grids?|systems?)\b|\brobot\w*\b|\blocomotion\b|\bnavigation\b|\bAtari\b|\bMuJoCo\b/i;

/** The sentence trains a language model (as opposed to an agent that calls one). */
const LLM_TRAINED =
  /\b(?:train|fine-?tun|post-train|align)\w*\s+(?:the |an? |our |its )?(?:[\w-]+ ){0,3}?(?:LLMs?|language models?|VLMs?|MLLMs?|reasoning models?|Qwen\w*|Llama\w*)\b|\b(?:LLMs?|language models?|VLMs?)\b (?:(?:is|are) )?(?:fine-tuned|post-trained|trained)\b/i;

export interface Authors {
  /** The abstract's sentences. */
  sentences: string[];
  /** Sentences the authors own: first person, or naming the title's method ("Tina: ..." then "Tina achieves"). */
  own: string[];
  /** Own sentences that say RL trains the authors' model (not RL avoided or beaten). */
  rlTraining: string[];
}

export function readAuthors(abstract: string, isOwn: (s: string) => boolean): Authors {
  const sentences = abstract.split(/(?<=[.!?])\s+/);
  const own = sentences.filter(isOwn);
  const rlTraining = own.filter((s) => RL_TRAINING_CLAIM.test(s) && !RL_AVOIDED.test(s) && !RL_HELPER.test(s));
  return { sentences, own, rlTraining };
}

/** A family acronym that needs context (GRPO also names a portfolio method) has it when a sentence trains a model with it. */
export function trainsWithName(a: Authors, name: RegExp): boolean {
  return a.sentences.some((s) => name.test(s) && TRAINED_OBJECT.test(s) && RL_TRAINING_CLAIM.test(s));
}

/** The negative cues that say "the authors do not train with RL"; the others (DPO-only, benchmarks) are left as they are. */
export const NOT_RL_TRAINED = new Set([
  'training-free',
  'no RL',
  'SFT-only',
  'distillation',
  'test-time scaling without training',
]);
/** Of those, the ones a title or the authors' own sentence can claim for the paper itself ("our method is training-free"). */
const CLAIMABLE = new Set(['training-free', 'no RL']);
/** Of those, the ones that can name the training method itself ("on-policy distillation with RL-like rewards"). */
const CAN_BE_THE_METHOD = new Set(['distillation', 'SFT-only']);

/**
 * Whether a not-RL-trained negative cue counts, judged from the sentence it matched in: it is set aside
 * when the authors say elsewhere (or as a later stage of the same sentence) that they train with RL, unless
 * the title or the authors' own sentence claims it for the paper ("Training-Free ...", "our method needs no RL").
 * `claimed` says the paper claims it for itself: then the authors' RL is not RL training of their model.
 */
export function judgeNegative(
  cue: { name: string; re: RegExp },
  where: 'title' | 'abstract',
  a: Authors,
  isOwn: (s: string) => boolean,
): { counts: boolean; claimed: boolean } {
  if (!NOT_RL_TRAINED.has(cue.name)) return { counts: true, claimed: false };
  const claimable = CLAIMABLE.has(cue.name);
  // A title names the paper's subject: "Training-Free ..." always counts, "... Distillation" unless the abstract
  // trains with RL after it as a stage; test-time scaling in a title gives way to any RL training.
  if (where === 'title') {
    if (claimable) return { counts: true, claimed: true };
    const stage = CAN_BE_THE_METHOD.has(cue.name) ? a.rlTraining.filter((s) => STAGE_BEFORE_RL.test(s)) : a.rlTraining;
    return { counts: stage.length === 0, claimed: false };
  }
  const sentence = a.sentences.find((s) => cue.re.test(s)) ?? '';
  const claimed = claimable && isOwn(sentence) && !ABOUT_OTHERS.test(sentence);
  if (claimed) return { counts: true, claimed: true };
  // An RL sentence outweighs the cue; for distillation and SFT only if it does not itself name them (then
  // they may be the method: on-policy distillation) or names them as a stage before RL.
  const outweighed = a.rlTraining.some(
    (s) => !CAN_BE_THE_METHOD.has(cue.name) || !cue.re.test(s) || STAGE_BEFORE_RL.test(s),
  );
  return { counts: !outweighed, claimed: false };
}

/**
 * Classic RL with a language model in the loop: an agent or controller trained with RL on a control-style
 * task that calls, queries or is orchestrated by an LLM, while no sentence trains the language model.
 */
export function classicRlWithLlmNearby(title: string, a: Authors): boolean {
  const all = `${title}\n${a.sentences.join(' ')}`;
  return CLASSIC_RL_TASK.test(all) && LLM_AS_TOOL.test(all) && !a.sentences.some((s) => LLM_TRAINED.test(s));
}

/**
 * Evidence keys (`Evidence.key`) that cannot stand in one decision: a negative that says the authors do
 * not train with RL (or that a name has no RL context) next to evidence that they do.
 */
const CONTRADICTS: Record<string, readonly string[]> = {
  'neg:no RL': ['own:train', 'own:apply'],
  'neg:training-free': ['own:train'],
  'neg:SFT-only': ['own:train'],
  'neg:distillation': ['own:train'],
  'neg:test-time scaling without training': ['own:train'],
  'neg:name-clash': ['own:train', 'own:apply', 'rl:sentences', 'rl:title'],
};

/** The contradicting pairs among a decision's evidence keys, as "neg:no RL vs own:apply"; empty when consistent. */
export function contradictions(keys: readonly string[]): string[] {
  const present = new Set(keys);
  return Object.entries(CONTRADICTS).flatMap(([neg, others]) =>
    present.has(neg) ? others.filter((o) => present.has(o)).map((o) => `${neg} vs ${o}`) : [],
  );
}
