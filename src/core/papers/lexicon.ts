/**
 * The GRPO-family lexicon: the names, acronyms and phrases the rules classifier looks for, with
 * how much each counts in the title and in the abstract. Pure data; `classify.ts` applies it.
 *
 * Weights are evidence in log-odds-like units: the classifier sums them and squashes the sum to a
 * 0..1 score. A title mention counts more than an abstract mention because a title names what the
 * paper is about, while an abstract also names baselines and background.
 */

export interface Cue {
  /** Human-readable name, used in reasons when the matched text alone would not explain itself. */
  name: string;
  re: RegExp;
  title: number;
  abstract: number;
}

/** What a positive cue says about the paper; `background` cues alone never prove RL training. */
export type CueKind = 'family' | 'training' | 'reward' | 'technique' | 'background';

export interface PositiveCue extends Cue {
  kind: CueKind;
}

export interface FamilyCue extends Cue {
  /**
   * The family name reported in `Classification.families`: one of the family tree's names
   * (src/core/papers/families.ts, a test keeps them in step), or null for evidence that names no family
   * of its own (PPO, plain REINFORCE).
   */
  family: string | null;
  /**
   * The acronym is also used outside RL (a pooling module called DAPO, a portfolio method called
   * GRPO): count it only when the text also talks about RL, rewards or policies.
   */
  needsContext: boolean;
  /** Strong members prove critic-free / verifiable-reward RL on their own; PPO and plain REINFORCE do not. */
  strong: boolean;
}

const fam = (
  family: string,
  re: RegExp,
  title: number,
  abstract: number,
  needsContext = true,
  strong = true,
  tag: string | null = family,
): FamilyCue => ({
  name: family,
  family: tag,
  re,
  title,
  abstract,
  needsContext,
  strong,
});

/**
 * Family members, most specific first: the first family cue that matches a span wins, so
 * "Flow-GRPO" is reported as Flow-GRPO and not also as GRPO.
 */
export const FAMILY_CUES: FamilyCue[] = [
  fam('Flow-GRPO', /\bFlow-GRPO\b/, 4, 3, false),
  fam('DanceGRPO', /\bDanceGRPO\b/, 4, 3, false),
  fam('Critique-GRPO', /\bCritique-GRPO\b/, 4, 3, false),
  fam('Dr. GRPO', /\bDr\.? ?GRPO\b/, 4, 3, false),
  // Variants are spelled X-GRPO, XGRPO or vsGRPO, so no word boundary before the acronym.
  fam('GRPO', /GRPO\b/, 4, 3),
  fam('GRPO', /\bgroup[- ]relative policy optimi[sz]ation\b/i, 4, 3, false),
  fam('DAPO', /\bDAPO\b/, 4, 3),
  fam('DAPO', /\bdecoupled clip and dynamic s?ampling\b/i, 4, 3, false),
  fam('GSPO', /\bGSPO\b/, 4, 3),
  fam('GSPO', /\bgroup sequence policy optimi[sz]ation\b/i, 4, 3, false),
  fam('GMPO', /\bGMPO\b/, 4, 3),
  fam('GMPO', /\bgeometric[- ]mean policy optimi[sz]ation\b/i, 4, 3, false),
  fam('GPG', /\bGPG\b/, 3, 2),
  fam('GPG', /\bgroup policy gradient\b/i, 3.5, 2.5, false),
  fam('VAPO', /\bVAPO\b/, 4, 3),
  fam('GVPO', /\bGVPO\b/, 4, 3),
  fam('GVPO', /\bgroup variance policy optimi[sz]ation\b/i, 4, 3, false),
  fam('GiGPO', /\bGiGPO\b|\bgroup-in-group policy optimi[sz]ation\b/i, 4, 3),
  fam('RLOO', /\bRLOO\b/, 4, 3),
  fam(
    'RLOO',
    /\bREINFORCE leave[- ]one[- ]out\b|\bleave[- ]one[- ]out (?:baseline|advantage|policy gradient|estimator)s?\b/i,
    3.5,
    2.5,
  ),
  fam('REINFORCE++', /\bREINFORCE\+\+/, 4, 3),
  fam('ReMax', /\bReMax\b/, 4, 3),
  fam('VinePPO', /\bVinePPO\b/, 4, 3),
  fam('PRIME', /\bPRIME\b/, 2, 1.5),
  fam('PRIME', /\bprocess reinforcement through implicit rewards?\b/i, 4, 3, false),
  fam('DisCO', /\bDisCO\b/, 2, 1.5),
  fam('DisCO', /\bdiscriminative constrained optimi[sz]ation\b/i, 3, 2, false),
  fam('CISPO', /\bCISPO\b/, 4, 3),
  fam('TreeRPO', /\bTreeRPO\b/, 4, 3),
  fam('RLVR', /\bRLVR\b/, 4, 3),
  fam('RLVR', /\breinforcement learning (?:with|from) verifiable rewards?\b/i, 4, 3, false),
  fam('RLVR', /\bverifiable (?:rewards?|outcome rewards?|reward signals?)\b/i, 3, 2.2, false),
  // An R1-Zero-like recipe is RL from verifiable rewards: reported as RLVR.
  fam(
    'R1-style RL',
    /\bR1[- ]Zero\b|\bR1-(?:style|like)\b|\bzero[- ]RL\b|\bReasoner-Zero\b/i,
    3,
    2,
    false,
    true,
    'RLVR',
  ),
  fam('REINFORCE', /\bREINFORCE\b(?!\+)/, 1.5, 1, true, false, null),
  fam('PPO', /\bPPO\b|\bproximal policy optimi[sz]ation\b/i, 1.2, 0.8, true, false, null),
];

const cue = (kind: CueKind, name: string, re: RegExp, title: number, abstract: number): PositiveCue => ({
  kind,
  name,
  re,
  title,
  abstract,
});

/** Phrases of the field that are not family names. */
export const POSITIVE_CUES: PositiveCue[] = [
  // Rewards that can be checked, and rewards shaped the way RLVR papers do.
  cue(
    'reward',
    'rule-based reward',
    /\brule-based (?:rewards?|reward functions?|reinforcement learning|RL|verifi\w+|(?:reward )?signals?|feedback)\b/i,
    2.5,
    1.8,
  ),
  // Rewards named by what checks them: "verifier-based rewards", "test-case pass rewards", "execution-based reward".
  cue(
    'reward',
    'checkable reward',
    /\b(?:verifier|rule|execution|test|unit[- ]test|test-case|pass[- ]rate|compiler|correctness|accuracy|answer|IoU|match)[- ]based rewards?\b|\b(?:test-case|unit[- ]test|pass|pass-rate|verifier|tool-integrated|action|IoU) rewards?\b/i,
    1.5,
    1.2,
  ),
  cue(
    'reward',
    'outcome reward',
    /\boutcome[- ](?:based |level )?rewards?\b|\boutcome[- ](?:driven|based|supervised|reward)[- ](?:reinforcement learning|RL)\b/i,
    1.2,
    1,
  ),
  cue('reward', 'task reward', /\b(?:format|accuracy|correctness|answer|execution|ranking) rewards?\b/i, 1.2, 1),
  cue(
    'reward',
    'process reward',
    /\bprocess(?:-level)? rewards?\b|\bstep[- ]level rewards?\b|\bdense (?:step |process )?rewards?\b/i,
    1,
    0.7,
  ),
  cue(
    'reward',
    'verifiable problems',
    /\bverifiable (?:problems|questions|answers|tasks|data|solutions|reasoning data|puzzles)\b/i,
    1,
    0.8,
  ),
  // RLVR papers describe checkable rewards by their shape when they do not say "verifiable".
  cue(
    'reward',
    'binary reward',
    /\bbinary (?:outcome |correctness |task |success )?(?:rewards?|feedback)\b|\b0\/1 (?:outcome )?rewards?\b|\bsparse (?:outcome )?rewards?\b/i,
    1,
    0.8,
  ),
  cue('reward', 'reward signal', /\breward (?:signals?|functions?|design|shaping)\b/i, 0.8, 0.6),
  // DAPO's four techniques, used by many later papers without naming DAPO.
  cue('technique', 'clip-higher', /\bclip[- ]higher\b|\bdecoupled clip(?:ping)?\b|\basymmetric clipping\b/i, 2, 1.5),
  cue('technique', 'dynamic sampling', /\bdynamic sampling\b/i, 1, 0.6),
  cue(
    'technique',
    'token-level policy gradient loss',
    /\btoken-level (?:policy[- ]gradient|loss aggregation|advantages?)\b/i,
    1.5,
    1.2,
  ),
  cue('technique', 'overlong reward shaping', /\boverlong (?:reward )?(?:shaping|penalty|filtering)\b/i, 1.5, 1.2),
  cue(
    'technique',
    'critic-free',
    /\bcritic[- ]free\b|\bvalue[- ](?:model|network)[- ]free\b|\b(?:without|no|removes?|eliminat\w+|bypass\w*) (?:both )?(?:the )?(?:need for )?(?:a |an |large )?(?:learned |separate |additional )?(?:critic|value (?:model|network|function))s?\b/i,
    1.8,
    1.3,
  ),
  cue(
    'technique',
    'group-relative advantages',
    /\bgroup[- ](?:normali[sz]ed|relative|based|wise|level) (?:advantages?|rewards?|baselines?|RL|reinforcement learning|policy|estimat\w+|updates?|optimi[sz]ation)\b|\bgroup policy optimi[sz]ation\b|\b(?:normali[sz]|standardi[sz])\w* (?:the )?(?:rewards?|scores?|advantages?) within (?:the |each )?group\b|\bwithin(?:-| the )group\b|\bgroup of (?:\w+ )?(?:sampled )?(?:responses|rollouts|outputs|completions|images|videos|trajector\w+)\b|\bmean (?:reward|return) of the other\b/i,
    1.8,
    1.3,
  ),
  cue(
    'technique',
    'advantage estimation',
    /\badvantage (?:estimat\w+|normali[sz]\w+|function|computation|values?|vanishing)\b|\b(?:relative|token-level|trajectory-level|step-level|micro|macro) advantages?\b/i,
    1,
    0.7,
  ),
  cue('technique', 'entropy collapse', /\bentropy collapse\b|\bpolicy entropy\b/i, 1, 0.7),
  cue(
    'technique',
    'importance ratio',
    /\bimportance (?:sampling )?ratios?\b|\bratio-clipped\b|\bclipped (?:surrogate )?objective\b/i,
    0.8,
    0.5,
  ),
  // Saying the model is trained with RL, in the ways abstracts say it.
  cue(
    'training',
    'trained with RL',
    /(?:\b(?:train|fine-?tun|optimi[sz]|post-train|tun|reinforc|refin|improv|enhanc|teach|develop|boost|elicit|instill)\w*\b(?<!\b(?:alternatives?|baselines?|counterparts?|competitors?) \w+)[^.;]{0,60}?\b(?:with|via|using|through|by)\s+(?:large-scale |online |multi-turn |end-to-end |pure |outcome-driven |outcome-based |on-policy |a |an |(?:short |brief |final |second |subsequent )?(?:phase|stage|round)s? of )*(?:reinforcement learning|RL|policy gradients?)\b|\b(?:apply|applies|applying|applied|employ\w*|adopt\w*) (?:large-scale |online |outcome-based )?(?:reinforcement learning|RL) (?:with|to|on)\b|\b(?:use|uses|using|used|leverag\w+) (?:\w+ ){0,2}?(?:reinforcement learning|RL) to (?:train|fine-?tune|teach|optimi[sz]e|improve|enhance|incentivi[sz]e)\b)(?! from (?:human|AI) feedback)/i,
    1.5,
    1.3,
  ),
  cue(
    'training',
    'RL training',
    /\b(?:RL|reinforcement learning)[- ](?:based )?(?:training|fine-?tuning|post-training|stage|phase|recipe|framework|algorithms?|paradigm|approach|method|objective|pipeline|runs?|iterations?|steps?|process|optimi[sz]ation)\b/i,
    1.2,
    1,
  ),
  cue(
    'training',
    'online RL',
    /\b(?:online|on-policy) (?:reinforcement learning|RL|policy)\b|\bmulti-turn (?:reinforcement learning|RL)\b/i,
    1.2,
    1,
  ),
  // RL as one stage of a post-training pipeline: "SFT followed by RL", "cold-start fine-tuning, then large-scale RL".
  // Distillation is not a start: "test-time scaling, distillation, and RL" is how surveys list techniques.
  cue(
    'training',
    'RL stage after SFT',
    /\b(?:SFT|supervised fine-?tuning|instruction tuning|cold[- ]start(?: fine-?tuning| data| SFT)?|fine-?tuning)\b[^.;]{0,60}?\s(?:and|followed by|then|before|plus|with subsequent|and subsequent)\s+(?:an? |the )?(?:[\w-]+ ){0,3}?(?:reinforcement learning|RL)\b/i,
    1.8,
    1.5,
  ),
  // How technical reports name a policy-training stage without a verb: "large-scale RL", "agentic RL".
  cue(
    'training',
    'scaled RL',
    /\b(?:large[- ]scale|scal(?:e|es|ed|ing)(?: up)?|prolonged|multi-stage|agentic|end-to-end|iterative|online curriculum)\s+(?:[\w-]+ )?(?:reinforcement learning|RL)\b(?! from (?:human|AI) feedback)/i,
    1.2,
    1,
  ),
  cue(
    'training',
    'RL in post-training',
    /\bpost-train\w*\b[^.]{0,100}?\b(?:reinforcement learning|RL)\b(?! from (?:human|AI) feedback)/i,
    1,
    0.8,
  ),
  // A title that says how the model is trained: "... via Reinforcement Learning", "... with Multi-Turn RL".
  cue(
    'training',
    'title: via RL',
    /\b(?:via|through|with|using|by)\s+(?!(?:inference|test)-time|verbal)(?:[\w-]+\s+){0,2}?(?:reinforcement learning|RL)\b(?! from (?:human|AI) feedback)/i,
    1.2,
    0,
  ),
  cue(
    'training',
    'reinforcement fine-tuning',
    /\breinforcement fine-?tuning\b|\breinforced fine-?tuning\b|\bRL[- ]tuned\b|\bRL-trained\b/i,
    1.2,
    1,
  ),
  // Other ways abstracts say a model learns from reward rather than from demonstrations.
  cue(
    'training',
    'reward maximisation',
    /\bmaximi[sz]\w* (?:the |its |their )?(?:expected |cumulative |task |verifiable |outcome )?(?:rewards?|returns?)\b|\breward-(?:driven|guided) (?:learning|training|optimi[sz]ation)\b|\btrial[- ]and[- ]error\b|\blearn\w* (?:directly )?from (?:execution|environment|compiler|interaction|outcome|task) feedback\b|\b(?:through|via|from) interactions? with (?:\w+ ){0,4}?environments?\b/i,
    1,
    0.8,
  ),
  cue(
    'training',
    'incentivised reasoning',
    /\bincentivi[sz]\w* (?:\w+ ){0,3}?(?:reasoning|thinking|search|capabilit\w+)\b|\bRL(?:-trained|-tuned)? reasoning models?\b/i,
    1,
    0.6,
  ),
  cue('training', 'reward fine-tuning', /\breward(?:-based)? fine-?tuning\b|\bstochastic polic(?:y|ies)\b/i, 1.2, 1),
  cue(
    'reward',
    'reward model for training',
    /\breward model(?:s|ing)?\b[^.]{0,40}\b(?:post-training|fine-?tuning|RL)\b|\b(?:post-training|fine-?tuning|RL)\b[^.]{0,40}\breward model(?:s|ing)?\b/i,
    1.2,
    0.6,
  ),
  cue('training', 'policy gradient', /\bpolicy[- ]gradients?\b/i, 1, 0.8),
  cue('training', 'policy optimization', /\bpolicy optimi[sz]ation\b/i, 1.2, 0.8),
  cue('training', 'rollouts', /\brollouts?\b/i, 0.7, 0.5),
  cue('training', 'R1-style model name', /\b(?!DeepSeek-)[A-Z][\w.$^{}-]*?-(?:R1|Zero)\b/, 1.2, 0),
  cue('training', 'aha moment', /\baha moments?\b/i, 0.6, 0.5),
  // KL to a reference policy is the RL-for-LLMs objective, but DPO shares the vocabulary: background only.
  cue(
    'background',
    'KL-regularised policy',
    /\bKL[- ](?:regulari[sz]ed|penalty|divergence control|constraint)\b|\breference polic(?:y|ies)\b/i,
    0.6,
    0.5,
  ),
  cue('technique', 'reward hacking', /\breward hacking\b|\breward over-?optimi[sz]ation\b/i, 0.6, 0.4),
];

/** Reinforcement learning named at all. Counted per sentence: a paper about RL says it often. */
export const RL_TERM =
  /\breinforcement learning\b|\bRL\b|\bRL(?:HF|AIF|VR|IF)\b|\breinforc(?:e|es|ed|ing)\b|\bpolicy (?:optimi[sz]ation|gradients?)\b|\bPPO\b|\bGRPO\b/i;

/** The text talks about rewards, policies or RL: needed before an ambiguous acronym counts. */
export const RL_CONTEXT = /\breinforcement\b|\bRL\w*\b|\bpolic(?:y|ies)\b|\brewards?\b|\brollouts?\b|\badvantages?\b/i;

/** The trained model is a language, vision-language or agent model. */
export const LLM_CONTEXT =
  /\blanguage[- ]models?\b|\b(?:LLM|VLM|MLLM|LMM|LRM|SLM|LVLM)s?\b|\bvision[- ]language\b|\bmultimodal large\b|\breasoning[- ]models?\b|\bQwen|\bLLaMA|\bLlama|\bDeepSeek|\bGPT-?\d|\bMistral|\bGemma|\bchain[- ]of[- ]thoughts?\b|\bCoT\b|\breasoning traces?\b|\blong-CoT\b|\bRLHF\b|\bRLVR\b|\b\d+(?:\.\d+)?B(?:-parameter)?\b|\bAIME\b|\bGSM8K\b|\bmath(?:ematical)? reasoning\b|\bfoundation models?\b|\bpost-training\b(?! quantization)|\bagentic\b|\bReAct\b|\b(?:web|GUI|search|LLM|language|computer[- ]use|software[- ]engineering|SWE|coding|research|tool-using|information[- ]seeking) agents?\b/i;

/** The trained model is an image, video, audio or 3D generator (GRPO-style RL applied to generators counts). */
export const GENERATOR_CONTEXT =
  /\bdiffusion[- ]models?\b|\bflow[- ]matching\b|\brectified flows?\b|\btext-to-(?:image|video|speech|3d)\b|\bimage-to-video\b|\b(?:image|video|visual|speech|audio|music|mesh|3D) (?:generation|generators?|synthesis)\b|\bgenerative (?:models?|recommenders?)\b|\bworld models?\b/i;

/** Classic deep-RL settings: only decisive when no language model or generator is being trained. */
export const CLASSIC_RL_DOMAIN =
  /\brobot(?:s|ic|ics)?\b|\blocomotion\b|\bquadruped\b|\bhumanoid\b|\bdexterous\b|\bAtari\b|\bMuJoCo\b|\bStarCraft\b|\bchess\b|\bshogi\b|\bdrones?\b|\bquadrotors?\b|\bsim-to-real\b|\bautonomous (?:driving|vehicles?)\b|\bmulti-agent reinforcement\b|\bMarkov decision process(?:es)?\b|\bMDPs?\b|\bslate\b/i;

/** Tasks where rewards are usually checkable; RLHF aimed at them is more than chat alignment. */
export const REASONING_TASK =
  /\bmath\w*\b|\breasoning\b|\bcod(?:e|ing)\b|\bprogram\w*\b|\bagents?\b|\btools?\b|\bAIME\b|\bGSM8K\b|\btheorem\b|\bpuzzles?\b|\bsearch\b/i;

export interface NegativeCue extends Cue {
  /** Applied only when the paper shows little evidence of RL training of its own. */
  gated: boolean;
}

const neg = (name: string, re: RegExp, title: number, abstract: number, gated = true): NegativeCue => ({
  name,
  re,
  title,
  abstract,
  gated,
});

/** Cues for the categories the issue excludes. Weights are negative. */
export const NEGATIVE_CUES: NegativeCue[] = [
  neg(
    'DPO-only',
    /\b(?:DPO|SimPO|KTO|ORPO|IPO)\b|\bdirect preference optimi[sz]ation\b|\bpreference optimi[sz]ation\b|\bpreference pairs?\b|\bpairwise (?:human )?preferences?\b/i,
    -3,
    -1.5,
  ),
  neg(
    'training-free',
    /\btraining-free\b|\bwithout (?:any )?(?:additional |further |extra |model )?(?:training|fine-?tuning|retraining|gradients?)\b|\bno (?:additional |extra |model )?(?:training|fine-?tuning)\b|\bdoes not require (?:any )?(?:additional )?(?:training|fine-?tuning)\b|\bno model parameters are updated\b|\bwithout (?:modifying|updating|changing) (?:the )?[\w'-]{0,20} ?parameters\b|\bbypasses the need for model parameter fine-?tuning\b|\bblack[- ]?box\b|\brequires no (?:fine-?tuning|training)\b/i,
    -2.5,
    -2.5,
  ),
  neg(
    'no RL',
    /\bwithout (?:any )?(?:reinforcement learning|RL)\b|\bno (?:reinforcement learning|RL)\b|\bdoes not require [^.]{0,60}\breinforcement learning\b|\bwithout online reinforcement learning\b/i,
    -2.5,
    -2.5,
  ),
  neg(
    'SFT-only',
    /\b(?:purely|only|solely|entirely) (?:by|with|through|via|on) (?:supervised fine-?tuning|SFT|behaviou?r cloning|imitation)\b|\bsupervised fine-?tuning (?:only|alone)\b|\bbehaviou?r cloning\b|\bimitation learning\b|\bsupervised fine-?tuning of\b|\bfine-tun\w+ (?:\w+ ){0,3}on (?:the )?(?:filtered|curated|synthetic|distilled)\b/i,
    -1.5,
    -1.5,
  ),
  neg('distillation', /\bdistill(?:ed|ation|ing)?\b/i, -1, -0.8),
  neg(
    'test-time scaling without training',
    /\btest-time (?:scaling|compute|computation)\b|\binference-time (?:scaling|compute|computation|techniques|search|algorithm)\b|\binference time compute\b|\bbest-of-n\b|\bmajority vot\w+\b|\bself-consistency\b|\bdecoding (?:strategy|algorithm)\b|\brepeated sampling\b|\bat (?:test|inference) time\b|\bprompting\b/i,
    -1.2,
    -0.8,
  ),
  neg(
    'benchmark or evaluation',
    /\bbench(?:mark)?s?\b|-Bench\b|\bevaluat\w+\b|\bhow (?:good|reliable|well)\b|\bmeasuring\b/i,
    -1.5,
    0,
    false,
  ),
  neg(
    'benchmark or evaluation',
    /\bwe (?:introduce|present|propose|construct|release|build) [^.]{0,80}\b(?:benchmark|leaderboard|evaluation (?:suite|framework|protocol|harness))\b|\bwe (?:evaluate|benchmark) \d+\b|\bevaluating \d+\b/i,
    0,
    -1.2,
  ),
  neg(
    'reward-model evaluation without policy training',
    /\b(?:reward models?|verifiers?|judges?|PRMs?|ORMs?)\b[^.]{0,80}\b(?:benchmark|evaluat\w+)\b|\b(?:benchmark|evaluat\w+)\b[^.]{0,80}\b(?:reward models?|verifiers?|judges?|PRMs?)\b/i,
    -1,
    -1,
  ),
  neg(
    'inference acceleration',
    /\bspeculative decoding\b|\bquanti[sz]\w+\b|\bKV[- ]cache\b|\bmodel merging\b|\bmerg(?:e|es|ing) (?:the )?weights\b/i,
    -1.5,
    -1,
  ),
];

/** Title words of a survey; a survey counts only when RL for LLMs is what it surveys. */
export const SURVEY_TITLE = /\bsurvey\b|\breview\b|\boverview\b|\bprimer\b|\btutorial\b|\bbook\b/i;

/** Chat-alignment vocabulary: PPO-RLHF for helpfulness/harmlessness with a learned preference model. */
export const CHAT_ALIGNMENT =
  /\bhuman feedback\b|\bhuman preferences?\b|\bhelpful(?:ness)?\b|\bharmless(?:ness)?\b|\bdialog(?:ue)?\b|\bchat\b|\bAlpacaEval\b|\bMT-Bench\b|\bArena-Hard\b|\bpreference models?\b|\bAI feedback\b|\binstruction following\b/i;

/**
 * In a sentence the authors own, RL is how they train: "we use RL to train", "improved through RL",
 * "updates during reinforcement learning". Counts as training evidence, unlike a bare mention.
 */
export const RL_AS_MEANS =
  /\b(?:train|fine-?tun|post-train|optimi[sz]|incentiv|teach|improv|enhanc|align)\w*\b[^.]{0,80}\b(?:reinforcement learning|RL)\b|\b(?:via|through|during|using|use|uses|employ\w*|apply\w*|adopt\w*|leverag\w+) (?:[\w-]+ ){0,3}?(?:reinforcement learning|RL)\b|\b(?:use|uses|used|using|employ\w*|apply\w*|adopt\w*|leverag\w+)\b[^.]{0,40}\bfor (?:reinforcement learning|RL)\b(?! from (?:human|AI) feedback)/i;

/** RL named only as what the paper avoids or beats ("without RL", "better than PPO"): not a training claim. */
export const RL_CONTRAST =
  /\b(?:without|instead of|rather than|than|unlike|alternatives?(?: to)?|need for|bypass\w*|avoid\w*)\b[^.]{0,40}\b(?:reinforcement learning|RL|PPO)\b/i;

/**
 * "Name: subtitle" titles name the paper's own method or model; abstracts then say "Tina achieves..."
 * where others write "we". Captures the name (at most two words).
 */
export const OWN_NAME = /^([A-Z][\w.+-]*[A-Za-z0-9+](?: [A-Z][\w.+-]*)?) ?:/;

/** Sentence-level first-person claim ("we train", "our method", "this model is trained"): separates doing RL from citing it. */
export const FIRST_PERSON = /\b(?:we|our|this (?:paper|work|study|model|method|approach|framework))\b/i;

/**
 * What the arXiv API family query asks for in titles and abstracts: every family name and the
 * field's defining phrases. Broad on purpose (DAPO also names unrelated methods); the classifier
 * decides afterwards.
 */
export const QUERY_TERMS: readonly string[] = [
  'GRPO',
  'group relative policy optimization',
  'DAPO',
  'GSPO',
  'group sequence policy optimization',
  'GMPO',
  'geometric-mean policy optimization',
  'GPG',
  'group policy gradient',
  'VAPO',
  'GVPO',
  'GiGPO',
  'RLOO',
  'REINFORCE leave-one-out',
  'REINFORCE++',
  'ReMax',
  'VinePPO',
  'CISPO',
  'TreeRPO',
  'RLVR',
  'reinforcement learning with verifiable rewards',
  'verifiable rewards',
  'rule-based reward',
  'R1-Zero',
  'zero RL',
  'critic-free',
  'Flow-GRPO',
  'DanceGRPO',
];
