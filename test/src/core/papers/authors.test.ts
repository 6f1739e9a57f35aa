import { describe, expect, it } from 'vitest';
import { loadSet } from '../../../../bench/classify.ts';
import { days, loadDay } from '../../../../bench/classify-days.ts';
import { contradictions } from '../../../../src/core/papers/authors.ts';
import { classifyPaper, ruleEvidence, type ClassifierInput } from '../../../../src/core/papers/classify.ts';

// Papers written from the failure shapes seen on unseen days (issue 24), not copied from any of them.

/** SFT warm-up on distilled data, then RL with process and code rewards; never says "language model". */
const SFT_THEN_RL: ClassifierInput = {
  title: 'Learning to Solve Competitive Programming Problems with Process and Execution Feedback',
  abstract:
    'Competitive programming demands long chains of correct steps. We build a two-stage recipe: an SFT warm-up on solutions distilled from a stronger teacher, then RL with process rewards from a step verifier and code rewards from unit-test execution. Distillation alone plateaus early; the RL stage adds 9 points of pass@1 on LiveCodeBench.',
};

/** An agent recipe with an agentic RL stage after SFT, which says other agents are training-free. */
const AGENT_RECIPE: ClassifierInput = {
  title: 'OpenScout: A Recipe for Training Deep Research Agents',
  abstract:
    'Existing deep research systems are mostly training-free pipelines that prompt proprietary models. We present OpenScout, an open recipe: we synthesize multi-hop questions, fine-tune a 7B model on curated trajectories, and then run an agentic RL stage in which the agent searches, browses and answers, rewarded by answer correctness. OpenScout outperforms training-free agents built on much larger models on BrowseComp and GAIA.',
};

/** A generator trained with GRPO, no other RL word, compared with test-time scaling. */
const GRPO_GENERATOR: ClassifierInput = {
  title: 'Teaching a Generator to Write Harder Instructions',
  abstract:
    'Synthetic instructions are cheap but rarely challenge strong solvers. We optimise an instruction generator with GRPO, scoring each generated instruction by how often a target solver fails on it while its answer remains checkable. Training solvers on these instructions helps more than test-time scaling with majority voting at equal compute.',
};

/** Classic RL with an LLM nearby: a PPO agent that calls API models. */
const PPO_CALLS_LLM: ClassifierInput = {
  title: 'Policy Optimization for Logic Synthesis with Language-Model Advisors',
  abstract:
    'Logic synthesis flows apply sequences of transformations to minimise circuit area and delay. We train a PPO agent that selects the next transformation, and at uncertain states it calls API-based large language models such as GPT-4o for advice on the recipe. On the EPFL benchmarks the agent reduces the area-delay product by 12% over prior RL and heuristic flows.',
};

/** Classic RL with an LLM nearby: PPO control orchestrated by an LLM. */
const LLM_ORCHESTRATES_PPO: ClassifierInput = {
  title: 'LLM-Orchestrated Reinforcement Learning for Autonomous Driving Control',
  abstract:
    'We propose a hierarchical framework in which a large language model orchestrates high-level driving decisions and a PPO controller executes low-level control. The LLM selects sub-goals and reward weights from a scene description, while the PPO policy is trained in CARLA. The framework reduces collisions by 30% over end-to-end RL baselines.',
};

/** The paper claims the negative for itself: a training-free method that only cites RL-trained models. */
const TRAINING_FREE_CLAIM: ClassifierInput = {
  title: 'Steering Reasoning Length at Decoding Time',
  abstract:
    'Reasoning models trained with reinforcement learning often overthink easy questions. Our method is training-free: we steer the hidden states at decoding time to shorten the chain of thought, without updating any parameters. It cuts tokens by 40% on GSM8K at equal accuracy.',
};

/** On-policy distillation, where the distillation is the method and RL is its vocabulary. */
const ON_POLICY_DISTILLATION: ClassifierInput = {
  title: 'Dense Teacher Signals for On-Policy Distillation of Reasoning Models',
  abstract:
    'On-policy distillation trains a student language model on its own samples with token-level feedback from a teacher. We train the student with on-policy distillation, treating the teacher log-probabilities as a dense reward in an RL-style update, and compare it with SFT on teacher traces. Students distilled this way match the teacher on MATH with a quarter of the compute.',
};

const negatives = (p: ClassifierInput) => classifyPaper(p).reasons.filter((r) => r.startsWith('negative:'));

describe('negative cues judged from the sentence, against what the authors say they do', () => {
  it('keeps an SFT warm-up on distilled data then RL with process and code rewards in the family', () => {
    const c = classifyPaper(SFT_THEN_RL);
    expect(c.grpoFamily).toBe(true);
    expect(c.reasons).toContain('abstract: the authors train with RL');
    expect(negatives(SFT_THEN_RL)).toEqual([]);
  });

  it('does not call an agent recipe with an agentic RL stage training-free because it says other agents are', () => {
    const c = classifyPaper(AGENT_RECIPE);
    expect(c.grpoFamily).toBe(true);
    expect(c.reasons).not.toContain('negative: training-free');
    expect(c.reasons).not.toContain('negative: SFT-only');
  });

  it('counts a generator trained with GRPO as RL, not a name clash, and drops the test-time negative', () => {
    const c = classifyPaper(GRPO_GENERATOR);
    expect(c.grpoFamily).toBe(true);
    expect(c.reasons.some((r) => r.includes('name clash'))).toBe(false);
    expect(c.reasons).not.toContain('negative: test-time scaling without training');
  });

  it('keeps a negative the paper claims for itself (a training-free method that cites RL-trained models)', () => {
    const c = classifyPaper(TRAINING_FREE_CLAIM);
    expect(c.grpoFamily).toBe(false);
    expect(c.reasons).toContain('negative: training-free');
    expect(c.reasons).not.toContain('abstract: the authors train with RL');
  });

  it('keeps the distillation negative when distillation is the method, even in RL vocabulary', () => {
    expect(classifyPaper(ON_POLICY_DISTILLATION).reasons).toContain('negative: distillation');
  });

  it('leaves out classic RL whose language model is only called or orchestrating, never trained', () => {
    for (const p of [PPO_CALLS_LLM, LLM_ORCHESTRATES_PPO]) {
      const c = classifyPaper(p);
      expect(c.grpoFamily).toBe(false);
      expect(c.reasons[0]).toBe('negative: classic RL with a language model in the loop, which RL does not train');
    }
  });
});

describe('consistent reasons', () => {
  it('names the pairs of evidence that contradict each other', () => {
    expect(contradictions(['neg:no RL', 'own:apply', 'rl:sentences'])).toEqual(['neg:no RL vs own:apply']);
    expect(contradictions(['neg:training-free', 'own:apply'])).toEqual([]);
    expect(contradictions(['neg:name-clash', 'rl:title'])).toEqual(['neg:name-clash vs rl:title']);
  });

  it('gives no labelled dev paper, curated paper or failure shape a contradicting pair of reasons', () => {
    const papers: ClassifierInput[] = [
      ...days('dev').flatMap(loadDay),
      ...(['dev', 'dev2', 'holdout', 'holdout2'] as const).flatMap(loadSet),
      SFT_THEN_RL,
      AGENT_RECIPE,
      GRPO_GENERATOR,
      PPO_CALLS_LLM,
      LLM_ORCHESTRATES_PPO,
      TRAINING_FREE_CLAIM,
      ON_POLICY_DISTILLATION,
    ];
    const found = papers.flatMap((p) => {
      const c = contradictions(ruleEvidence(p).evidence.map((e) => e.key));
      return c.length > 0 ? [`${p.title.slice(0, 60)}: ${c.join(', ')}`] : [];
    });
    expect(found).toEqual([]);
  });
});
