/**
 * The GRPO family tree: for each named algorithm the classifier reports (`FAMILY_CUES` in
 * `lexicon.ts`), what it is, the paper that defines it, what it builds on, and how far TRL's
 * `GRPOConfig` can reproduce it. Pure data.
 *
 * Sources:
 * - the defining papers themselves (arXiv abstracts). Only GSPO (2507.18071) is in the seed corpus.
 *   Every other id is `idCheck: 'checked'`: GVPO, GiGPO, DisCO, TreeRPO and Critique-GRPO against
 *   arXiv (2026-11-23, issue 14), the rest (2026-11-24) against public texts that cite the paper by id
 *   and title (bibliographies, paper lists, TRL's and other code's docstrings). REINFORCE++ (2501.03262) and VinePPO
 *   (2410.01679) were retitled in later versions; their first titles, which most citations use, stay.
 *   A family added later without such a check is `'recalled'`, and its card says so.
 * - TRL's documentation, checked on 2026-11-23 against TRL TRL_DOC_VERSION (the current release):
 *   the GRPOConfig reference, the Paper Index (GSPO's recipe and its note on when the sequence ratio
 *   matters), `trl.rewards` (accuracy_reward, get_soft_overlong_punishment), `trl.experimental.gmpo`
 *   and the RLOO trainer. Each setting names the first TRL version that has it: `loss_type` 0.17,
 *   `"dapo"` and get_soft_overlong_punishment 0.22, accuracy_reward 0.24, `"cispo"` 0.26,
 *   GMPOTrainer (experimental) 1.7. Re-check on a TRL upgrade: TRL renames options and changes
 *   defaults between versions (`scale_rewards` went from a boolean to "group" | "batch" | "none"; the
 *   default `loss_type` has changed more than once), and `trl.experimental` may change in any release.
 */
/** What the family queries need of a family: its name and the arXiv id of its defining paper. */
export interface FamilyRef {
  name: string;
  arxivId: string | null;
  /** Count a summary's changed grpo_delta axis as building on this family (GRPO). */
  viaDelta?: boolean;
}

/** The TRL release the reproduction tables were checked against, and when. Re-check when upgrading past it. */
export const TRL_DOC_VERSION = '1.9';
export const TRL_CHECKED_ON = '2026-11-23';

/** The family whose summaries' `grpo_delta` (a changed axis) means a paper builds on it. */
export const DELTA_FAMILY = 'GRPO';

/** One `GRPOConfig` (or trainer) setting that expresses part of an algorithm. */
export interface TrlSetting {
  /** As written in Python, e.g. `importance_sampling_level="sequence"`. */
  setting: string;
  /** What it reproduces. */
  what: string;
  /** The first TRL version that has it, e.g. "TRL >= 0.20". */
  since: string;
}

export interface TrlRecipe {
  /** native: the settings reproduce the method; partial: the core, with gaps; none: not in TRL. */
  support: 'native' | 'partial' | 'none';
  settings: TrlSetting[];
  /** What TRL does not do (write your own reward function, loss or trainer). */
  missing: string[];
  /**
   * A gap that only matters to some papers of the family, and how to tell them from their text: a
   * paper's card states it only when its title or abstract matches (GRPO's process-supervision gap is
   * nothing to a paper with outcome rewards).
   */
  missingOnlyWhen?: Readonly<Record<string, RegExp>>;
}

export interface FamilyEntry {
  /** Exactly the family name `FAMILY_CUES` reports (and `papers.families` stores). */
  name: string;
  /** Lowercase, URL- and custom-id-safe key, e.g. `dr-grpo`. */
  slug: string;
  description: string;
  defining: {
    arxivId: string | null;
    title: string;
    /** seed: the id is in the seed corpus; checked: checked against arXiv; recalled: from memory, not yet checked. */
    idCheck: 'seed' | 'checked' | 'recalled';
  };
  /** Families it builds on or modifies. */
  buildsOn: string[];
  trl: TrlRecipe;
}

const none = (missing: string[]): TrlRecipe => ({ support: 'none', settings: [], missing });

export const FAMILIES: readonly FamilyEntry[] = [
  {
    name: 'GRPO',
    slug: 'grpo',
    description:
      "Group Relative Policy Optimization: PPO without a critic. For each prompt it samples a group of completions, scores them, and uses each reward minus the group mean, divided by the group standard deviation, as the advantage of every token; keeps PPO's clipped ratio and adds a KL penalty to a reference model. Introduced in DeepSeekMath and made famous by DeepSeek-R1.",
    defining: {
      arxivId: '2402.03300',
      title: 'DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models',
      idCheck: 'checked',
    },
    buildsOn: ['PPO'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'GRPOTrainer + GRPOConfig(num_generations=G)',
          what: 'group sampling and group-relative advantages',
          since: 'TRL >= 0.14',
        },
        {
          setting: 'loss_type="grpo"',
          what: "the paper's per-sequence length normalisation (not the default in recent versions)",
          since: 'TRL >= 0.17',
        },
        {
          setting: 'beta=0.04',
          what: 'the KL penalty to the reference model (recent defaults use beta=0.0)',
          since: 'TRL >= 0.14',
        },
        {
          setting: 'epsilon=0.2, num_iterations=μ',
          what: 'clip range; μ > 1 reuses a batch for several updates',
          since: 'TRL >= 0.16',
        },
      ],
      missing: ['a process-supervision variant (step rewards) — only outcome rewards via reward_funcs'],
      missingOnlyWhen: {
        'a process-supervision variant (step rewards) — only outcome rewards via reward_funcs':
          /\bprocess(?:-level)? (?:rewards?|supervision)\b|\bstep[- ]level rewards?\b|\bPRMs?\b|\bprocess reward models?\b/i,
      },
    },
  },
  {
    name: 'DAPO',
    slug: 'dapo',
    description:
      'Decoupled Clip and Dynamic sAmpling Policy Optimization (ByteDance Seed): four fixes to GRPO for long chain-of-thought RL — clip-higher (a larger upper clip ε_high against entropy collapse), dynamic sampling (drop groups whose rewards are all equal and resample to fill the batch), a token-level policy-gradient loss, and overlong reward shaping (mask or softly penalise truncated completions); no KL term.',
    defining: {
      arxivId: '2503.14476',
      title: 'DAPO: An Open-Source LLM Reinforcement Learning System at Scale',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: {
      support: 'partial',
      settings: [
        {
          setting: 'loss_type="dapo"',
          what: 'token-level loss normalised over the global batch (before 0.22, loss_type="bnpo" is close)',
          since: 'TRL >= 0.22',
        },
        { setting: 'epsilon=0.2, epsilon_high=0.28', what: 'clip-higher', since: 'TRL >= 0.17' },
        {
          setting: 'mask_truncated_completions=True',
          what: 'overlong filtering (truncated completions excluded from the loss)',
          since: 'TRL >= 0.18',
        },
        {
          setting: 'reward_funcs=[..., get_soft_overlong_punishment(max_completion_len, soft_punish_cache)]',
          what: 'soft overlong punishment (from trl.rewards)',
          since: 'TRL >= 0.22',
        },
        { setting: 'beta=0.0', what: 'no KL term', since: 'TRL >= 0.14' },
      ],
      missing: [
        'dynamic sampling: TRL does not drop zero-variance groups and resample to refill the batch (those groups just get zero advantage)',
      ],
    },
  },
  {
    name: 'Dr. GRPO',
    slug: 'dr-grpo',
    description:
      'GRPO Done Right, from "Understanding R1-Zero-Like Training": shows that dividing by response length and by the group\'s reward standard deviation biases GRPO (longer wrong answers, question-difficulty weighting), and removes both — a constant normaliser for the loss and mean-centred rewards as advantages.',
    defining: {
      arxivId: '2503.20783',
      title: 'Understanding R1-Zero-Like Training: A Critical Perspective',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'loss_type="dr_grpo"',
          what: 'loss divided by a constant (max_completion_length) instead of each length',
          since: 'TRL >= 0.17',
        },
        {
          setting: 'scale_rewards=False',
          what: 'no division by the group std (scale_rewards="none" in versions where it takes a string)',
          since: 'TRL >= 0.16; string form TRL >= 0.22',
        },
        { setting: 'beta=0.0', what: 'no KL term, as in the paper', since: 'TRL >= 0.14' },
      ],
      missing: [],
    },
  },
  {
    name: 'GSPO',
    slug: 'gspo',
    description:
      "Group Sequence Policy Optimization (Qwen team): replaces GRPO's per-token importance ratios with one length-normalised sequence-level ratio, and clips and rewards whole sequences; reported to stabilise RL of large and mixture-of-experts models (Qwen3).",
    defining: { arxivId: '2507.18071', title: 'Group Sequence Policy Optimization', idCheck: 'seed' },
    buildsOn: ['GRPO'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'importance_sampling_level="sequence"',
          what: 'sequence-level importance ratio',
          since: 'TRL >= 0.20',
        },
        {
          setting: 'epsilon=3e-4, epsilon_high=4e-4',
          what: "the much tighter clip range a sequence-level ratio needs (the paper's values)",
          since: 'TRL >= 0.17',
        },
        {
          setting: 'loss_type="grpo", beta=0.0, steps_per_generation=4 * gradient_accumulation_steps',
          what: "the paper's setup: sequence averaging, no KL, the rollout split into 4 mini-batches. The sequence ratio only acts off-policy: when steps_per_generation > gradient_accumulation_steps or num_iterations > 1; otherwise GSPO equals GRPO",
          since: 'TRL >= 0.20',
        },
      ],
      // As TRL's Paper Index gives GSPO's recipe (checked 2026-11-23).
      missing: [
        "GSPO-token (token-level advantages with a sequence-level ratio) is only in TRL's experimental module, not GRPOConfig",
      ],
    },
  },
  {
    name: 'GMPO',
    slug: 'gmpo',
    description:
      "Geometric-Mean Policy Optimization: maximises the geometric mean of token-level rewards (importance-weighted) instead of GRPO's arithmetic mean, which is less sensitive to outlier importance ratios and allows a wider clip range.",
    defining: { arxivId: '2507.20673', title: 'Geometric-Mean Policy Optimization', idCheck: 'checked' },
    buildsOn: ['GRPO'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'from trl.experimental.gmpo import GMPOConfig, GMPOTrainer; GMPOConfig(epsilon=0.4, beta=0.0)',
          what: "the geometric-mean objective, clipped per token in log space (ratios within exp(±0.4), the paper's range); experimental: may change in any release",
          since: 'TRL >= 1.7',
        },
      ],
      missing: [],
    },
  },
  {
    name: 'GPG',
    slug: 'gpg',
    description:
      'Group Policy Gradient: drops the surrogate loss, ratio clipping, critic and reference model and trains with the plain policy-gradient objective on group-relative advantages, with a correction for groups that give no gradient.',
    defining: {
      arxivId: '2504.02546',
      title: 'GPG: A Simple and Strong Reinforcement Learning Baseline for Model Reasoning',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: {
      support: 'partial',
      settings: [
        {
          setting: 'num_iterations=1, steps_per_generation=gradient_accumulation_steps, beta=0.0',
          what: 'fully on-policy: ratio is 1, so clipping never acts and the loss is plain policy gradient without KL',
          since: 'TRL >= 0.18',
        },
      ],
      missing: ['the advantage correction (α) and valid-sample threshold for groups with all-equal rewards'],
    },
  },
  {
    name: 'VAPO',
    slug: 'vapo',
    description:
      "Value-model-based Augmented PPO (ByteDance Seed): goes back to a learned critic for long chain-of-thought, with value pretraining, decoupled and length-adaptive GAE, and DAPO's clip-higher, token-level loss and group sampling.",
    defining: {
      arxivId: '2504.05118',
      title: 'VAPO: Efficient and Reliable Reinforcement Learning for Advanced Reasoning Tasks',
      idCheck: 'checked',
    },
    buildsOn: ['PPO', 'DAPO'],
    trl: none([
      "a critic: GRPOTrainer has none; TRL's PPOTrainer has one but not value pretraining or length-adaptive GAE",
    ]),
  },
  {
    name: 'GVPO',
    slug: 'gvpo',
    description:
      'Group Variance Policy Optimization: derives the group-relative update from the KL-constrained reward-maximisation optimum, so the loss matches reward differences within a group to log-probability differences; claims a unique optimal solution and support for off-policy sampling.',
    defining: {
      arxivId: '2504.19599',
      title: 'GVPO: Group Variance Policy Optimization for Large Language Model Post-Training',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: none(['the GVPO loss: override compute_loss']),
  },
  {
    name: 'GiGPO',
    slug: 'gigpo',
    description:
      "Group-in-Group Policy Optimization for LLM agents: keeps GRPO's episode-level groups and adds step-level groups of actions taken from the same environment state, giving finer credit assignment in long multi-turn tasks without a critic.",
    defining: {
      arxivId: '2505.10978',
      title: 'Group-in-Group Policy Optimization for LLM Agent Training',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: none(['multi-turn environments and step-level grouping by environment state']),
  },
  {
    name: 'RLOO',
    slug: 'rloo',
    description:
      'REINFORCE Leave-One-Out: samples k completions per prompt and uses the mean reward of the other k-1 as each completion\'s baseline; "Back to Basics" argues this REINFORCE-style method beats PPO for RLHF at a fraction of the cost.',
    defining: {
      arxivId: '2402.14740',
      title: 'Back to Basics: Revisiting REINFORCE Style Optimization for Learning from Human Feedback in LLMs',
      idCheck: 'checked',
    },
    buildsOn: ['REINFORCE'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'RLOOTrainer + RLOOConfig(num_generations=k)',
          what: "leave-one-out baseline; recent versions share GRPOTrainer's interface (reward_funcs, vLLM)",
          since: 'TRL >= 0.23 interface (older: rloo_k and a reward model)',
        },
      ],
      missing: [],
    },
  },
  {
    name: 'REINFORCE++',
    slug: 'reinforce-pp',
    description:
      "REINFORCE++: REINFORCE with PPO's tricks (token-level KL penalty, clipping, advantages normalised over the global batch rather than per prompt group), aiming at GRPO's simplicity without its per-prompt bias; implemented in OpenRLHF.",
    defining: {
      arxivId: '2501.03262',
      title: 'REINFORCE++: A Simple and Efficient Approach for Aligning Large Language Models',
      idCheck: 'checked',
    },
    buildsOn: ['REINFORCE', 'PPO'],
    trl: {
      support: 'partial',
      settings: [
        {
          setting: 'RLOOTrainer + RLOOConfig(normalize_advantages=True)',
          what: "TRL's own REINFORCE++ recipe: a leave-one-out baseline with advantages normalised over the batch",
          since: 'TRL >= 0.23',
        },
      ],
      missing: ['the token-level KL folded into the reward, as in OpenRLHF'],
    },
  },
  {
    name: 'ReMax',
    slug: 'remax',
    description:
      "ReMax: REINFORCE for RLHF with the greedy completion's reward as the baseline, removing the critic and most of PPO's memory cost.",
    defining: {
      arxivId: '2310.10505',
      title:
        'ReMax: A Simple, Effective, and Efficient Reinforcement Learning Method for Aligning Large Language Models',
      idCheck: 'checked',
    },
    buildsOn: ['REINFORCE'],
    trl: none(['the greedy-decoding baseline']),
  },
  {
    name: 'VinePPO',
    slug: 'vineppo',
    description:
      'VinePPO: PPO whose value estimates come from Monte Carlo rollouts from intermediate reasoning steps instead of a learned critic, for better credit assignment in reasoning.',
    defining: {
      arxivId: '2410.01679',
      title: 'VinePPO: Unlocking RL Potential For LLM Reasoning Through Refined Credit Assignment',
      idCheck: 'checked',
    },
    buildsOn: ['PPO'],
    trl: none(['Monte Carlo value estimates from intermediate states']),
  },
  {
    name: 'PRIME',
    slug: 'prime',
    description:
      'Process Reinforcement through IMplicit rEwards: trains an implicit process reward model online from outcome labels and uses its token-level rewards together with outcome rewards in an RLOO/PPO-style update.',
    defining: { arxivId: '2502.01456', title: 'Process Reinforcement through Implicit Rewards', idCheck: 'checked' },
    buildsOn: ['RLOO', 'PPO'],
    trl: none(['the online implicit process reward model and dense token rewards']),
  },
  {
    name: 'DisCO',
    slug: 'disco',
    description:
      "Discriminative Constrained Optimization: recasts GRPO-style training as discriminative learning — raise scores of correct answers, lower incorrect ones — with a KL constraint instead of clipping, removing GRPO's question-difficulty bias.",
    defining: {
      arxivId: '2505.12366',
      title: 'DisCO: Reinforcing Large Reasoning Models with Discriminative Constrained Optimization',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: none(['the discriminative objective and constrained optimisation']),
  },
  {
    name: 'CISPO',
    slug: 'cispo',
    description:
      "Clipped IS-weight Policy Optimization (MiniMax-M1): clips the importance-sampling weights instead of the token updates, so no token's gradient is dropped; used to train MiniMax-M1 with long outputs.",
    defining: {
      arxivId: '2506.13585',
      title: 'MiniMax-M1: Scaling Test-Time Compute Efficiently with Lightning Attention',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'loss_type="cispo", epsilon_high=5.0',
          what: "clipped importance-sampling weights (detached), no token's gradient dropped; epsilon_high caps the weight, 5.0 as in ScaleRL",
          since: 'TRL >= 0.26',
        },
      ],
      missing: [],
    },
  },
  {
    name: 'TreeRPO',
    slug: 'treerpo',
    description:
      'TreeRPO: samples reasoning as a tree and computes group-relative rewards at every branching step, giving step-level signals without a process reward model.',
    defining: { arxivId: '2506.05183', title: 'TreeRPO: Tree Relative Policy Optimization', idCheck: 'checked' },
    buildsOn: ['GRPO'],
    trl: none(['tree-structured sampling and step-level groups']),
  },
  {
    name: 'Critique-GRPO',
    slug: 'critique-grpo',
    description:
      'Critique-GRPO: adds natural-language critiques to numeric rewards; the model refines its answers after a critique and learns from both the initial and refined responses in one GRPO-style update.',
    defining: {
      arxivId: '2506.03106',
      title: 'Critique-GRPO: Advancing LLM Reasoning with Natural Language and Numerical Feedback',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: none(['critique generation and learning from refinements']),
  },
  {
    name: 'Flow-GRPO',
    slug: 'flow-grpo',
    description:
      'Flow-GRPO: GRPO for flow-matching text-to-image models, turning the deterministic ODE sampler into an equivalent SDE so that sampling is stochastic and policy-gradient training applies; with denoising reduction for speed.',
    defining: {
      arxivId: '2505.05470',
      title: 'Flow-GRPO: Training Flow Matching Models via Online RL',
      idCheck: 'checked',
    },
    buildsOn: ['GRPO'],
    trl: none(['image generation: GRPOTrainer trains language models only']),
  },
  {
    name: 'DanceGRPO',
    slug: 'dancegrpo',
    description:
      'DanceGRPO: GRPO for visual generation across diffusion and rectified-flow models and tasks (text-to-image, text-to-video, image-to-video), with several reward models.',
    defining: { arxivId: '2505.07818', title: 'DanceGRPO: Unleashing GRPO on Visual Generation', idCheck: 'checked' },
    buildsOn: ['GRPO', 'Flow-GRPO'],
    trl: none(['image and video generation: GRPOTrainer trains language models only']),
  },
  {
    name: 'RLVR',
    slug: 'rlvr',
    description:
      'Reinforcement Learning with Verifiable Rewards: not an optimiser but a setting — rewards come from a checker (exact answer match, unit tests, format rules) instead of a learned reward model. Named in Tülu 3; GRPO and its variants are its usual optimisers.',
    defining: {
      arxivId: '2411.15124',
      title: 'Tülu 3: Pushing Frontiers in Open Language Model Post-Training',
      idCheck: 'checked',
    },
    buildsOn: [],
    trl: {
      support: 'native',
      settings: [
        {
          setting: 'GRPOTrainer(reward_funcs=[my_checker, ...])',
          what: 'Python reward functions that check answers; several are summed (reward_weights)',
          since: 'TRL >= 0.14 (reward_weights TRL >= 0.16)',
        },
        {
          setting: 'reward_funcs=[trl.rewards.accuracy_reward, trl.rewards.think_format_reward]',
          what: 'ready-made checkers: the math answer (math_verify) and the <think> format',
          since: 'TRL >= 0.24',
        },
      ],
      missing: ['sandboxed code execution: bring your own'],
      missingOnlyWhen: {
        'sandboxed code execution: bring your own':
          /\bcode\b|\bcoding\b|\bprogram\w*|\bsoftware\b|\bunit[- ]tests?\b|\bcode execution\b|\bSWE\b/i,
      },
    },
  },
];

/**
 * The one list of family names: what the classifier reports, cards and /family show, /family list
 * counts, /subscribe family: offers and the relevance judge may answer.
 */
export const FAMILY_NAMES: readonly string[] = FAMILIES.map((f) => f.name);

/** FAMILY_CUES families with no entry above, and why. A test checks every cue family is one or the other. */
export const NOT_COVERED: Readonly<Record<string, string>> = {
  'R1-style RL': 'a training recipe (R1-Zero-like RL from a base model), not one algorithm; see GRPO and RLVR',
  REINFORCE: 'the 1992 policy-gradient estimator: background to every entry, and mostly named as a baseline',
  PPO: 'the classic actor-critic method GRPO departs from; papers name it mostly as a baseline',
};

/** The year of the methods families build on that are not families (the family tree draws them as background). */
export const BACKGROUND_YEARS: Readonly<Record<string, number>> = { PPO: 2017, REINFORCE: 1992 };

/** The entry for a name or slug as a user typed it (case- and punctuation-insensitive), if any. */
export function findFamily(typed: string): FamilyEntry | undefined {
  const key = familyKey(typed);
  return FAMILIES.find((f) => familyKey(f.name) === key || familyKey(f.slug) === key);
}

function familyKey(s: string): string {
  return s
    .toLowerCase()
    .replace(/\+\+/g, 'pp')
    .replace(/[^a-z0-9]/g, '');
}

/** The query's view of a data-file entry. */
export function familyRef(f: Pick<FamilyEntry, 'name' | 'defining'>): FamilyRef {
  return { name: f.name, arxivId: f.defining.arxivId, viaDelta: f.name === DELTA_FAMILY };
}
