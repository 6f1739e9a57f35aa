/**
 * Word lists for the synthetic corpus. The order of GENERAL is the frequency rank (Zipf): English
 * function words first (the parser drops them, but they make abstracts realistic in size), then
 * academic ML words, then RL-for-LLM terms. Domain words (RARE) and a generated tail of rare
 * pseudo-words follows in corpus.ts, so the vocabulary (and the GIN index) has a long tail too.
 */

const words = (s: string): string[] => s.trim().split(/\s+/);

export const GENERAL = words(`
  the of and to a in we that is for on with our by this as are an from be which it at can than these
  both while such into not more when its also only or across over between without each through two
  model models method results performance training learning reasoning language large approach show propose
  data task tasks policy reward rewards optimization existing however further significantly based improve
  improves framework novel new experiments benchmarks benchmark demonstrate achieves effective efficient
  state art evaluation stability study analysis problem challenge key different strong extensive
  reinforcement rl llms llm fine tuning tuned responses response generation training signal quality
  sampling samples group relative advantage advantages baseline variance estimation gradient gradients
  token tokens sequence sequences level objective loss update updates rollout rollouts rollouts trajectory
  trajectories step steps length long short chain thought reasoning verifiable verifier correct answer
  answers accuracy math mathematical problems code coding pass solution solutions instruction preference
  preferences human feedback alignment aligned supervised distillation teacher student inference time
  compute scaling test budget efficiency overhead memory latency throughput convergence stable unstable
  collapse entropy exploration exploitation diversity diverse entropy regularization penalty kl divergence
  reference clipping clip ratio importance off on critic value function free actor estimator bias
  unbiased normalization normalized standard deviation mean reward model process outcome dense sparse
  credit assignment hacking overoptimization curriculum difficulty adaptive dynamic filtering filter
  multimodal vision visual image images video spatial perception grounding agent agents tool tools
  search retrieval environment interaction multi turn turns dialogue planning web browsing
  self play verification reflection critique critiques judge judges rubric rubrics synthetic generated
  pretraining pretrained base instruct checkpoint checkpoints merging distilled small scale parameters
  generalization transfer domain domains robustness safety harmful refusal calibration uncertainty
  overthinking underthinking concise budget forcing early exit compression pruning quantization
  importance weighting sequence-level token-level mixture experts routing moe sparse attention
  theoretical guarantee analysis bound regret sample complexity empirical ablation ablations insight
  remove removing stop keep make makes made shorten shorter instead help helps allow allows enable enables
  lead leads reduce reduces increase increases prevent avoid find found observe observed introduce introduces
  present investigate explore design learned provide provides require requires suggest suggests yield yields
  outperform outperforms surpass remain remains often simple first second finally specifically whether
  because despite rather several many various multiple single overall typical common popular widely recent
  prior previous current future open release available publicly critical perspective understanding
`);

/** Domain words: rare outside their topic, so they are spread through the rare tail (corpus.ts). */
export const RARE = words(`
  medical clinical pathology radiology biology protein molecule molecular chemistry drug docking
  robot robotics manipulation driving autonomous navigation embodied game games chess sudoku puzzle
  legal finance financial education tutoring translation multilingual speech audio music recommendation
  theorem proving lean formal geometry physics olympiad competition contest leetcode sql table
`);

/** Topic clusters: a paper draws part of its words from one or two of these, so words co-occur. */
export const TOPICS: Record<string, string[]> = {
  math: words(
    'math mathematical reasoning olympiad problems answer verifiable accuracy chain thought geometry theorem proof aime gsm8k',
  ),
  code: words('code coding program synthesis unit tests execution leetcode repair compiler software debugging'),
  multimodal: words('multimodal vision visual image images video spatial perception grounding chart diagram ocr'),
  agents: words('agent agents tool tools search web browsing environment interaction multi turn planning memory'),
  efficiency: words('length overthinking concise budget compression efficient tokens early exit short adaptive'),
  reward: words('reward model process outcome verifier judge rubric preference hacking overoptimization dense'),
  stability: words('entropy collapse exploration clipping ratio kl penalty divergence reference variance stability'),
  medical: words('medical clinical pathology radiology diagnosis patient report biomedical health'),
  science: words('chemistry molecule molecular protein drug docking physics biology materials'),
  alignment: words('alignment safety harmful refusal human feedback preferences helpful honest red teaming'),
};

/** Method names (acronyms) that titles lead with; the rank decides how often each appears. */
export const METHODS = words(`
  GRPO PPO DPO RLHF RLVR DAPO REINFORCE RLOO VAPO ReMax PRIME TTRL SimPO KTO ORPO GSPO GPG CISPO
  Dr.GRPO VinePPO StepGRPO Seed-GRPO EMPO SPIN ReST STaR Quiet-STaR ARES TreeRPO FlowRL
`);

export const TITLE_NOUNS = words(`
  Reasoning Policy Optimization Reinforcement Learning Rewards Exploration Alignment Scaling Training
  Verification Distillation Entropy Agents Models Thinking Feedback Credit Assignment Curriculum Search
`);
export const TITLE_ADJS = words(
  'Efficient Stable Scalable Adaptive Robust Simple Unified Group Sequence Token Dynamic Self-Rewarding Multi-Turn Verifiable',
);
export const TITLE_TASKS = words(
  'Math Code Vision Agents Dialogue Medicine Chemistry Robotics Translation Retrieval Theorem-Proving Games',
);

export const FIRST_NAMES = words(`
  Wei Jing Yang Hao Xin Yu Li Chen Zhang Ming Tao Jun Lei Yan Fei Qian Ana Maria David Sarah John
  Michael Emily Daniel Laura Pierre Sofia Lukas Anna Ahmed Priya Arjun Kenji Yuki Min-jun Seo-yeon
`);
export const LAST_NAMES = words(`
  Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao Smith Johnson
  Brown Garcia Miller Davis Martin Bernard Müller Schmidt Rossi Kumar Singh Patel Tanaka Suzuki Kim Park
`);

/** Chinese terms for titles and notes (repeated characters make single-character queries match widely). */
export const ZH_TERMS = words(`
  强化学习 策略优化 群组 序列 相对 奖励模型 过程奖励 结果奖励 大语言模型 推理 数学推理 代码生成 多模态 视觉
  空间推理 熵 探索 裁剪 重要性采样 优势函数 价值函数 蒸馏 思维链 长度惩罚 可验证奖励 模型合并 预训练 对齐
  人类反馈 偏好优化 智能体 工具调用 检索 医学 病理 分子 稳定性 高效 自适应 课程学习 测试时 扩展 奖励黑客
`);
export const ZH_FILLER = words(
  '我们 提出 一种 方法 实验 结果 表明 显著 提升 性能 基于 通过 训练 问题 本文 该 在 和 的 了',
);

/**
 * A few papers planted in every corpus (spread evenly), so typo and title queries have a known
 * right answer at any size: the benchmark reports where it ranks (bench/queries.ts `expect`).
 */
export const LANDMARKS: { title: string; titleZh?: string }[] = [
  { title: 'Group Sequence Policy Optimization', titleZh: '群组序列策略优化' },
  { title: 'DAPO: An Open-Source LLM Reinforcement Learning System at Scale' },
  { title: 'Understanding R1-Zero-Like Training: A Critical Perspective' },
  { title: 'Deep Reinforcement Learning from Human Feedback for Reasoning' },
  { title: 'Efficient Entropy-Guided Exploration for Reasoning Models' },
  { title: 'Rethinking Length Scaling in Long Chain-of-Thought Reasoning' },
  { title: 'Sudoku-R1: Verifiable Rewards for Constraint Puzzles' },
];
