/**
 * The fixed topic taxonomy users subscribe to, and the cues that put a paper into a topic.
 * Pure. Slugs are stable identifiers stored in the database and typed by users: never rename one.
 */

export const TOPIC_SLUGS = [
  'algorithm',
  'reward-modeling',
  'multimodal',
  'agents-tools',
  'efficient-reasoning',
  'exploration-entropy',
  'math-code',
  'theory-analysis',
  'generation',
  'recommendation-retrieval',
  'safety-alignment',
  'data-curriculum',
  'infrastructure',
  'survey',
] as const;

export type TopicSlug = (typeof TOPIC_SLUGS)[number];

export interface Topic {
  slug: TopicSlug;
  label: string;
  description: string;
  /** Each distinct cue that matches adds 1 (2 in the title); a topic needs `MIN_TOPIC_SCORE`. */
  cues: RegExp[];
}

export const TOPICS: Topic[] = [
  {
    slug: 'algorithm',
    label: 'Algorithms',
    description:
      'New or modified policy-optimisation objectives: advantages, clipping, KL, loss aggregation, baselines.',
    cues: [
      /\b[A-Z][\w-]*PO\b/, // named X-PO objectives (GRPO, DAPO, GSPO, ...)
      /\bpolicy optimi[sz]ation\b|\bpolicy gradients?\b|\bREINFORCE\b/i,
      /\badvantage (?:estimat|normali[sz])\w*|\bcredit assignment\b|\bbaselines? (?:for|to reduce) variance\b|\bvariance reduction\b/i,
      /\bclip(?:ping|-higher)?\b|\bimportance (?:sampling|ratio)\b|\bKL (?:penalty|divergence|regulari[sz]ation|term)\b|\btrust region\b/i,
      /\b(?:objective|surrogate|estimator|loss aggregation|off-policy|on-policy|value model|critic)\b/i,
    ],
  },
  {
    slug: 'reward-modeling',
    label: 'Rewards and verifiers',
    description: 'Reward design, reward models, process rewards, verifiers and judges used to train policies.',
    cues: [
      /\breward models?\b|\b(?:PRM|ORM)s?\b/,
      /\bprocess rewards?\b|\bverifiers?\b|\bjudges?\b|\brubrics?\b/i,
      /\breward (?:design|shaping|hacking|functions?|signals?)\b|\brewards? from\b/i,
      /\bintrinsic (?:rewards?|signals?)\b|\bself-certainty\b|\bwithout (?:external|ground-truth) (?:rewards?|labels?)\b/i,
    ],
  },
  {
    slug: 'multimodal',
    label: 'Multimodal',
    description: 'Vision-language, video, audio and other multimodal models trained with RL.',
    cues: [
      /\b(?:VLM|MLLM|LMM|LVLM)s?\b/,
      /\bvision[- ]language\b|\bmultimodal\b|\bmulti-modal\b/i,
      /\bvisual\b|\bimages?\b|\bvideos?\b/i,
      /\baudio\b|\bspeech\b/i,
    ],
  },
  {
    slug: 'agents-tools',
    label: 'Agents and tools',
    description: 'Multi-turn agents, tool use, search, web, GUI and software-engineering agents.',
    cues: [
      /\bagents?\b|\bagentic\b/i,
      /\btool[- ](?:use|calls?|calling|integrated)\b|\btools\b|\bfunction[- ]call/i,
      /\bsearch engines?\b|\bweb (?:navigation|agents?|browsing)\b|\bGUI\b|\bcomputer[- ]use\b|\bSWE\b|\bsoftware engineering\b/i,
      /\bmulti-turn\b|\blong-horizon\b|\benvironments?\b/i,
    ],
  },
  {
    slug: 'efficient-reasoning',
    label: 'Efficient reasoning',
    description: 'Shorter or adaptive chains of thought, length control, overthinking, early exit.',
    cues: [
      /\boverthinking\b|\bover-thinking\b/i,
      /\b(?:response|reasoning|output|CoT) length\b|\blength (?:penalty|control|constraint)\b|\btoken (?:usage|budget|efficiency)\b/i,
      /\bconcise\b|\bshorter\b|\bearly exit\b|\bcompress\w*\b/i,
      /\befficient reasoning\b|\breasoning efficiency\b|\badaptive (?:thinking|reasoning)\b|\bwhen to think\b/i,
    ],
  },
  {
    slug: 'exploration-entropy',
    label: 'Exploration and entropy',
    description: 'Entropy collapse, exploration bonuses, diversity and pass@k during RL training.',
    cues: [
      /\bentropy\b/i,
      /\bexplor(?:e|ation|ing)\b/i,
      /\bdiversity\b|\bdiverse (?:solutions|reasoning|trajectories)\b/i,
      /\bpass@k\b|\bpass@\d{2,}\b/i,
    ],
  },
  {
    slug: 'math-code',
    label: 'Math and code',
    description: 'Mathematical reasoning, theorem proving and programming.',
    cues: [
      /\bmath\w*\b/i,
      /\bAIME\b|\bGSM8K\b|\bMATH(?:-?500)?\b|\bOlympiad\w*\b|\bAMC\b|\bMinerva\b/,
      /\bcod(?:e|ing)\b|\bprogram(?:s|ming)\b|\bLiveCodeBench\b|\bHumanEval\b|\bunit tests?\b/i,
      /\btheorem\b|\bproofs?\b|\bLean\b/,
    ],
  },
  {
    slug: 'theory-analysis',
    label: 'Theory and analysis',
    description: 'Theoretical results and empirical analyses of what RL training does and why.',
    cues: [
      /\btheor(?:y|etical|etically)\b|\bwe prove\b|\bconvergence\b/i,
      /\banaly[sz](?:e|is|ing|es)\b|\bempirical study\b|\bsystematic(?:ally)? stud\w+\b|\bcritically examine\b|\binvestigat\w+\b/i,
      /\bunderstanding\b|\bwhy\b|\bdoes\b.*\?|\breally\b/i,
      /\bbias(?:ed)?\b|\bdynamics\b/i,
    ],
  },
  {
    slug: 'generation',
    label: 'Image, video and audio generation',
    description: 'RL applied to diffusion, flow-matching and autoregressive image, video, speech and 3D generators.',
    cues: [
      /\btext-to-(?:image|video|speech|3d)\b|\bimage-to-video\b/i,
      /\bdiffusion\b|\bflow[- ]matching\b|\brectified flows?\b/i,
      /\b(?:image|video|visual|speech|audio|music|mesh|3D) (?:generation|generators?|synthesis)\b/i,
      /\bStable Diffusion\b|\bSD3\b|\bFLUX\b|\bGenEval\b/,
    ],
  },
  {
    slug: 'recommendation-retrieval',
    label: 'Recommendation and retrieval',
    description: 'Recommenders, rerankers, retrieval and RAG trained with RL.',
    cues: [
      /\brecommend\w*\b/i,
      /\bretriev\w*\b|\bRAG\b/i,
      /\brerank\w*\b|\branking\b|\bNDCG\b|\brecall@\d+\b/i,
      /\bquery (?:rewrit\w+|generation)\b|\bsearch queries\b/i,
    ],
  },
  {
    slug: 'safety-alignment',
    label: 'Safety and alignment',
    description: 'Safety, refusal, jailbreaks, honesty and preference alignment.',
    cues: [
      /\bsafety\b|\bsafe\b|\bharm(?:ful|less|lessness)\b/i,
      /\bjailbreak\w*\b|\brefus\w+\b|\bover-refusal\b/i,
      /\b(?:safety|value|human|model|LLM) alignment\b|\baligning (?:large )?(?:language )?models?\b|\baligned with (?:human|user)\b|\bconstitution\w*\b/i,
      /\bhuman (?:feedback|preferences?)\b|\bRLHF\b|\btoxic\w*\b|\bhonest\w*\b/i,
    ],
  },
  {
    slug: 'data-curriculum',
    label: 'Data and curriculum',
    description: 'Training data, data selection and filtering, difficulty curricula, datasets and environments for RL.',
    cues: [
      /\bcurricul\w+\b/i,
      /\bdata (?:selection|curation|augmentation|filtering|synthesis|efficien\w+)\b|\bdown-sampling\b|\bfilter\w*\b/i,
      /\bdifficult(?:y|ies)\b|\bhard(?:er|est)? (?:problems|questions|prompts)\b/i,
      /\bdatasets?\b|\bdata generators?\b|\bprocedural\w*\b/i,
    ],
  },
  {
    slug: 'infrastructure',
    label: 'Infrastructure',
    description:
      'Systems and frameworks for RL training: rollout engines, scheduling, asynchronous pipelines, throughput.',
    cues: [
      /\bthroughput\b|\bGPU (?:utili[sz]ation|memory|hours)\b|\bspeed-?up\b|\b\d+(?:\.\d+)?x (?:faster|speedup|training speedup|throughput)\b/i,
      /\basynchronous\b|\bdistributed\b|\bscheduling\b|\bcolocated\b|\bdisaggregated\b/i,
      /\b(?:training|RL|RLHF|post-training|distributed) (?:systems?|frameworks?|infrastructure|engines?)\b|\b(?:learning|RL) systems?\b|\binfrastructure\b/i,
      /\bvLLM\b|\bMegatron\b|\bFSDP\b|\bverl\b|\bRay\b/,
    ],
  },
  {
    slug: 'survey',
    label: 'Surveys',
    description: 'Surveys, reviews, books and tutorials of the field.',
    cues: [
      /\bsurvey\b|\breview\b|\boverview\b|\bprimer\b|\btutorial\b|\bbook\b/i,
      /\bwe (?:survey|review|categori[sz]e|summari[sz]e)\b|\bthis survey\b|\bliterature\b/i,
    ],
  },
];

/** Cue points a topic needs; a title cue alone (2 points) is enough. */
export const MIN_TOPIC_SCORE = 2;
/** Most topics reported for one paper, strongest first: more would make topic subscriptions noisy. */
export const MAX_TOPICS = 4;

/**
 * Ranks the topics a paper belongs to. Deterministic: ties keep taxonomy order. When no topic
 * reaches `MIN_TOPIC_SCORE`, the single best one-cue topic is kept, so that topic subscribers
 * still see papers whose abstracts say little (an empty list only when nothing matches at all).
 */
export function assignTopics(title: string, abstract: string): TopicSlug[] {
  const scored: { slug: TopicSlug; score: number; order: number }[] = [];
  TOPICS.forEach((topic, order) => {
    let score = 0;
    for (const re of topic.cues) {
      if (re.test(title)) score += 2;
      else if (re.test(abstract)) score += 1;
    }
    if (score > 0) scored.push({ slug: topic.slug, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  const strong = scored.filter((s) => s.score >= MIN_TOPIC_SCORE);
  return (strong.length > 0 ? strong.slice(0, MAX_TOPICS) : scored.slice(0, 1)).map((s) => s.slug);
}
