/**
 * A practitioner's vocabulary (pure): the words people use when training goes wrong, mapped to the
 * terms the field's papers use for the same thing. "rewards are all 0 or 1" is what an abstract calls
 * zero-advantage groups and dynamic sampling; "it rambles" is overthinking and length penalties. A
 * question that says the problem gets the field's terms added (weighed below the words typed), in
 * English and Chinese. Kept to problems of RL-for-LLM training; add entries as users ask them.
 */

import { terms } from '../text/analyze.ts';

export interface ProblemEntry {
  /** A short name, for explanations and tests. */
  name: string;
  /** How an English question says it (matched on the lowercased question, Chinese ones included for their Latin words). */
  en: RegExp;
  /** How a Chinese question says it (substrings of the question). */
  zh: readonly string[];
  /** What the papers call it: English phrases, analysed like any query text. */
  terms: readonly string[];
}

export const PROBLEMS: readonly ProblemEntry[] = [
  {
    name: 'group size',
    en: /\bgroup sizes?\b|\brollouts? (?:per|for each|each) (?:prompt|question|problem)\b|\b(?:samples|generations|responses|completions) (?:per|for each) (?:prompt|question|problem)\b|\b(?:number of|how many|more) (?:rollouts|samples|generations|responses|completions)\b/,
    zh: [
      '组大小',
      '组的大小',
      '采样数',
      '采样次数',
      '采样多少',
      '每个问题采样',
      '每道题采样',
      'rollout 数',
      'rollout数',
    ],
    terms: ['group size', 'number of rollouts', 'rollout budget', 'budget allocation', 'more rollouts'],
  },
  {
    name: 'too long',
    en: /\btoo (?:long|verbose|wordy)\b|\brambl\w*|\bverbose\b|\bover-?think\w*|\bshorter\b|\bthinks? (?:too )?(?:long|much)\b|\blong(?:er)? (?:responses|outputs|answers|cots?|chains?)\b|\bresponses? (?:get |gets |getting |grows? |grow )?longer\b|\blength (?:explod\w*|grows?|increases?|blows? up)\b|\bconcise\b/,
    zh: ['太长', '冗长', '啰嗦', '过度思考', '想半天', '想太多', '短一点', '变长', '越来越长', '简洁', '简单题'],
    terms: [
      'length penalty',
      'overthinking',
      'efficient reasoning',
      'concise reasoning',
      'response length',
      'adaptive thinking',
    ],
  },
  {
    name: 'no labels',
    en: /\bno (?:ground[- ]truth|labels?|labell?ed data|annotations?|reference answers?|verifiers?)\b|\bwithout (?:any )?(?:ground[- ]truth|labels?|annotations?|reference answers?|(?:a )?verifiers?)\b|\bunlabell?ed\b|\blabel[- ]free\b|\bmajority[- ]vot\w*|\bself[- ]reward\w*|\bself[- ]certainty\b/,
    zh: [
      '没有标注',
      '无标注',
      '没标注',
      '没有标签',
      '无标签',
      '没有标准答案',
      '没有答案',
      '没有参考答案',
      '不需要标注',
      '多数投票',
      '自己出题',
    ],
    terms: ['label-free', 'unsupervised', 'self-rewarding', 'test-time reinforcement learning', 'majority voting'],
  },
  {
    name: 'zero advantage',
    en: /\b(?:all|always|every(?:thing| rollout)?(?: is)?) (?:0|zero|1|one|correct|wrong|right|the same)\b|\b(?:zero|no|vanishing) advantages?\b|\badvantages? (?:is|are|becomes?|goes to|of) (?:0|zero)\b|\b(?:same|identical|uniform) rewards?\b|\bno (?:learning |gradient |training )?signal\b|\bnothing gets learned\b/,
    zh: [
      '全对',
      '全错',
      '奖励一样',
      '奖励都一样',
      '奖励相同',
      '优势为零',
      '优势为0',
      '零优势',
      '都是 0',
      '都是0',
      '直接是 0',
      '直接是0',
    ],
    terms: ['zero advantage', 'dynamic sampling', 'vanishing advantage', 'identical rewards'],
  },
  {
    name: 'entropy collapse',
    en: /\bentropy (?:collapse\w*|drops?|tanks?|falls?|crash\w*|goes to zero|decreases?|vanish\w*)\b|\bstops? exploring\b|\b(?:no|lack of|less|poor|losing|loses) (?:exploration|diversity)\b|\bmode collapse\b|\bexplor\w*/,
    zh: ['熵坍缩', '熵塌缩', '熵崩溃', '熵掉', '熵降', '熵下降', '多样性', '探索'],
    terms: ['entropy collapse', 'exploration', 'policy entropy', 'diversity'],
  },
  {
    name: 'KL penalty',
    en: /\bkl\b|\bkullback\b|\breference model\b/,
    zh: ['参考模型', '散度'],
    terms: ['KL penalty', 'KL divergence', 'reference model'],
  },
  {
    name: 'off-policy',
    en: /\bstale\b|\boff[- ]policy\b|\basync\w*|\bold (?:policy|rollouts|samples)\b|\breus(?:e|es|ed|ing)\b|\breplay\w*|\bmultiple (?:epochs|updates)\b|\b(?:ppo|several|many) (?:epochs|updates)\b/,
    zh: ['异步', '过时', '旧策略', '复用', '多个 epoch', '多个epoch', '多步更新', '回放', '离策略', '异策略'],
    terms: ['off-policy', 'stale rollouts', 'asynchronous', 'importance sampling', 'experience replay'],
  },
  {
    name: 'slow rollouts',
    en: /\b(?:slow|speed(?:s|ing)? up|faster|wall[- ]?clock|throughput|long[- ]tail\w*|idle|bottleneck)\b/,
    zh: ['太慢', '很慢', '空等', '加速', '拖住', '长尾', '吞吐', '瓶颈'],
    terms: ['efficient rollout', 'asynchronous', 'throughput', 'long-tail', 'speculative rollout', 'speedup'],
  },
  {
    name: 'instability',
    en: /\bunstable\b|\binstabilit\w*|\b(?:training |run )?(?:collapses|blows? up|diverges?|nans?|spikes?)\b/,
    zh: ['不稳定', '崩了', '崩掉', '训崩', '发散', '训练崩溃'],
    terms: ['training stability', 'training collapse', 'training-inference mismatch', 'importance sampling'],
  },
  {
    name: 'mixture of experts',
    en: /\bmoe\b|\bmixture[- ]of[- ]experts\b/,
    zh: ['混合专家', '专家混合'],
    terms: ['mixture-of-experts', 'MoE', 'expert routing', 'sequence-level'],
  },
  {
    name: 'reward hacking',
    en: /\bhack\w*|\bexploit\w* the (?:reward|verifier|judge)\b|\bcheat\w*|\bgam(?:e|es|ing) the (?:reward|verifier|judge)\b/,
    zh: ['被 hack', '被hack', 'hack 了', 'hack了', '钻空子', '作弊', '刷分'],
    terms: ['reward hacking', 'reward model', 'over-optimization'],
  },
  {
    name: 'noisy reward',
    en: /\bnoisy (?:rewards?|verifiers?|judges?|labels?)\b|\b(?:llm|model)[- ](?:as[- ]a[- ])?judges?\b|\bfalse (?:positives?|negatives?)\b|\bbiased (?:judges?|verifiers?|rewards?)\b/,
    zh: ['奖励噪声', '噪声', '不准'],
    terms: ['noisy rewards', 'verifier', 'generative verifier', 'LLM-as-a-judge'],
  },
  {
    name: 'SFT and RL',
    en: /\bsft\b[^.?!]*\brl\b|\brl\b[^.?!]*\bsft\b|\bwarm[- ]?start\w*|\bcold[- ]start\w*|\bsupervised fine[- ]?tuning\b/,
    zh: ['冷启动', '先 SFT', '先SFT', 'SFT 之后', 'SFT 后', '监督微调'],
    terms: ['supervised fine-tuning', 'SFT', 'single-stage', 'unified'],
  },
  {
    name: 'negative samples',
    en: /\bnegative (?:samples?|examples?|rollouts?|responses?)\b|\bonly (?:the )?(?:correct|positive|right) (?:samples?|answers?|responses?|rollouts?)\b|\b(?:wrong|incorrect) (?:answers?|samples?|responses?|rollouts?)\b/,
    zh: ['负样本', '正确样本', '错误样本', '只用正确', '正样本'],
    terms: ['negative samples', 'positive samples', 'negative gradient', 'incorrect responses'],
  },
  {
    name: 'clipping',
    en: /\bclip[- ]?higher\b|\basymmetric clip\w*|\bclip(?:ping)? (?:range|ratio|threshold|epsilon)\b/,
    zh: ['裁剪范围', 'clip 范围', '非对称裁剪'],
    terms: ['clip-higher', 'clipping', 'trust region', 'decoupled clipping'],
  },
  {
    name: 'hard problems',
    en: /\b(?:never|can't|cannot|fails? to) solves?\b|\bhardest (?:problems|questions|prompts)\b|\btoo (?:hard|difficult)\b|\bhints?\b|\bpartial solutions?\b/,
    zh: ['难题', '做不出', '太难', '提示', '部分答案', '参考答案'],
    terms: ['hard problems', 'hints', 'guidance', 'partial solutions'],
  },
  {
    name: 'data difficulty',
    en: /\b(?:too|trivially) easy\b|\bimpossible\b|\bwhich (?:prompts|problems|questions|data)\b|\bdifficulty\b|\beasy to hard\b|\bcurriculum\b/,
    zh: ['太简单', '难度', '由易到难', '筛选数据', '选数据', '课程'],
    terms: ['difficulty', 'data selection', 'curriculum', 'prompt selection', 'online filtering'],
  },
  {
    name: 'forgetting',
    en: /\bforget\w*|\bcatastrophic\b|\bone after another\b|\bcontinual\b|\bold tasks\b/,
    zh: ['遗忘', '忘记', '持续学习'],
    terms: ['catastrophic forgetting', 'continual learning'],
  },
  {
    name: 'mixed tasks',
    en: /\b(?:different|heterogeneous|mixed) (?:reward scales|tasks|domains)\b|\bone task dominates\b|\bmulti[- ]?(?:task|domain)\b|\bmix (?:them|tasks|domains|data)\b/,
    zh: ['多任务', '多领域', '混合训练', '不同任务', '一起训'],
    terms: ['multi-task', 'multi-domain', 'data mixture', 'cross-domain'],
  },
  {
    name: 'reasoning boundary',
    en: /\bpass@k\b|\bpass@\d{2,}\b|\breasoning boundar\w*|\bbase model (?:is )?better\b/,
    zh: ['推理边界', '能力边界', '大 k', 'pass@k'],
    terms: ['pass@k', 'reasoning boundary', 'base model'],
  },
  {
    name: 'low-probability tokens',
    en: /\blow[- ]probability tokens?\b|\brare tokens?\b|\bunlikely tokens?\b/,
    zh: ['低概率'],
    terms: ['low-probability tokens', 'token-level', 'gradient'],
  },
  {
    name: 'reproducibility',
    en: /\b(?:reproduce|replicate|reproducib\w*|seeds?)\b|\bvariance (?:across|between) runs\b/,
    zh: ['复现', '换个 seed', '随机种子', '种子'],
    terms: ['reproducibility', 'evaluation', 'random seeds', 'variance'],
  },
  {
    name: 'adaptive thinking',
    en: /\bwhen to think\b|\bthink only when\b|\b(?:easy|simple) (?:questions|problems) (?:directly|quickly|without)\b|\balways (?:uses? )?long cot\b/,
    zh: ['该想的时候', '直接答', '自适应', '才想'],
    terms: ['adaptive thinking', 'adaptive reasoning', 'when to think'],
  },
];

/**
 * Every term of the field's terms above: a typed word among them is the field's own word, never a
 * misspelling to correct, even when no paper has it yet ("stale" is not "scale").
 */
export const FIELD_TERMS: ReadonlySet<string> = new Set(PROBLEMS.flatMap((p) => p.terms.flatMap((t) => terms(t))));

/** The entries a question names: by its English words (case-folded) or its Chinese phrases. */
export function problemsIn(text: string): ProblemEntry[] {
  const lower = text.toLowerCase();
  return PROBLEMS.filter((p) => p.en.test(lower) || p.zh.some((w) => lower.includes(w.toLowerCase())));
}
