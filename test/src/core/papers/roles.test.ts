import { describe, expect, it } from 'vitest';
import { familyMembers, familyMentions } from '../../../../src/core/papers/roles.ts';
import { classifyPaper, familyReasons } from '../../../../src/core/papers/classify.ts';

// Written from the patterns abstracts use, not copied from the answer key's papers.
const roleOf = (title: string, abstract: string, family: string) =>
  familyMentions(title, abstract)
    .filter((m) => m.family === family)
    .map((m) => m.role);
const members = (title: string, abstract: string) => familyMembers(title, abstract).map((m) => m.family);

describe('familyMentions', () => {
  it("reads the paper's own pipeline told in the third person as training with the family", () => {
    const abstract =
      'Grounding needs precise boxes. Training combines grounding pretraining, supervised fine-tuning, and GRPO-based reinforcement post-training. The grounder reaches a new state of the art.';
    expect(members('BoxFast: Grounding at Speed', abstract)).toEqual(['GRPO']);
  });

  it('reads a method named after the family, or written as one word with it, as a variant', () => {
    expect(
      members(
        'PlanTree: Planning Agents',
        'Agents plan over trees of subtasks with reinforcement learning. TreeGRPO, a GRPO adaptation, injects credit along the tree.',
      ),
    ).toEqual(['GRPO']);
    expect(
      members(
        'RolloutCut: Fewer Rollouts',
        'Reinforcement learning drives reasoning. To address entropy collapse, we propose GRPOCut: before each update it removes a few rollouts.',
      ),
    ).toContain('GRPO');
  });

  it('reads group-relative advantages described without the name as GRPO, and a framing sentence as nothing', () => {
    const own =
      'Agents learn from sparse task rewards. We weight each group-derived local advantage by how much of the return the action explains.';
    expect(members('StepWeight: Credit for Agents', own)).toContain('GRPO');
    const framing =
      'Agents learn from sparse task rewards. Group-relative advantages are commonly used but vanish under consensus. We propose a critic instead.';
    expect(members('CriticNow: Agents', framing)).not.toContain('GRPO');
  });

  it('keeps a comparison a comparison across decimal numbers, and an argued-against use out of the families', () => {
    const abstract =
      'We propose a routing interface trained with reinforcement learning. It reaches 83.64 +/- 1.16, compared with 73.79 +/- 1.83 for full-parameter GRPO. Yet training a router with GRPO alone can reinforce generic routes.';
    expect(roleOf('RouteNet: Routing', abstract, 'GRPO')).not.toContain('trains-with');
    expect(members('RouteNet: Routing', abstract)).not.toContain('GRPO');
  });

  it('places a paper in RLVR when a later sentence puts its work there, not when it turns away from it', () => {
    const inRlvr =
      'Models are sensitive to irrelevant prompt features, yet training ignores it. We introduce StableCredit, a variant of GRPO that reweights token advantages. The results suggest stability is an effective signal for credit assignment in RLVR.';
    expect(members('StableCredit: Token Credit', inRlvr)).toEqual(['GRPO', 'RLVR']);
    const away =
      'Many tasks cannot be evaluated by exact outcome verification. We train with rubric rewards using a modified version of GRPO.';
    expect(members('RubricRL: Open-Ended Tasks', away)).toEqual(['GRPO']);
  });

  it('calls a family named after "outperforms" a baseline, not a family of the paper', () => {
    const abstract =
      'We propose StepWise, a credit-assignment method for reinforcement learning of reasoning models. On AIME, StepWise outperforms GRPO and DAPO by 4 points.';
    expect(roleOf('Step-Level Credit for Reasoning', abstract, 'GRPO')).toEqual(['baseline']);
    expect(roleOf('Step-Level Credit for Reasoning', abstract, 'DAPO')).toEqual(['baseline']);
    expect(members('Step-Level Credit for Reasoning', abstract)).toEqual([]);
  });

  it('calls a family inside a repository URL part of a name', () => {
    const abstract =
      'We train a math model with reinforcement learning on unlabeled questions. Code: https://github.com/PRIME-RL/NewRepo';
    expect(roleOf('Label-Free Reasoning', abstract, 'PRIME')).toEqual(['name']);
    expect(members('Label-Free Reasoning', abstract)).not.toContain('PRIME');
  });

  it('calls a method that takes a family name but spells it out differently a name clash', () => {
    const abstract =
      'We build an agentic system whose planner is trained in the loop. To train it on-policy, we propose Flow-based Group Refined Policy Optimization (Flow-GRPO), which broadcasts one trajectory reward to every turn.';
    expect(roleOf('Agentic Planning in the Flow', abstract, 'Flow-GRPO')).toContain('clash');
    expect(members('Agentic Planning in the Flow', abstract)).not.toContain('Flow-GRPO');
  });

  it('calls an acronym with no RL anywhere near it a name clash', () => {
    const abstract =
      'We propose DAPO, a depth-aware pyramid for monocular 3D occupancy, improving mIoU on SemanticKITTI.';
    expect(roleOf('DAPO: Depth-Aware Pyramid Occupancy', abstract, 'DAPO')).toContain('clash');
  });

  it('calls "we train ... with GRPO" training with it, and keeps the phrase as the reason', () => {
    const abstract =
      'Small models struggle with geometry proofs. We train a 3B model with GRPO on 20K synthetic proofs, with a proof checker as the reward.';
    expect(roleOf('Geometry Proofs for Small Models', abstract, 'GRPO')).toEqual(['trains-with']);
    const [m] = familyMembers('Geometry Proofs for Small Models', abstract);
    expect(m).toMatchObject({ family: 'GRPO', role: 'trains-with' });
    expect(m!.reason).toMatch(/^trains with it: “.*We train a 3B model with GRPO/);
  });

  it('calls "we propose X, a GRPO variant" a variant', () => {
    const abstract =
      'We propose SpanNorm, a GRPO variant that normalises advantages per reasoning span. It reduces length bias on math benchmarks.';
    expect(roleOf('Span-Normalised Advantages', abstract, 'GRPO')).toEqual(['variant']);
  });

  it('calls a name the paper introduces with the family’s own expansion its defining paper', () => {
    const abstract =
      'We introduce Group Sequence Policy Optimization (GSPO), which defines the importance ratio on whole sequences.';
    expect(roleOf('Sequence-Level Ratios for RL', abstract, 'GSPO')).toContain('defining');
  });

  it('calls "methods such as GRPO" in a sentence about the field background', () => {
    const abstract =
      'Reinforcement learning methods such as GRPO have become popular for reasoning. We study tokenizer effects on pretraining.';
    expect(roleOf('Tokenizers and Pretraining', abstract, 'GRPO')).toEqual(['background']);
  });

  it('calls RL from rule-based rewards in the authors’ own sentence RLVR, without the name', () => {
    const abstract = 'We fine-tune a vision-language model with rule-based rewards for counting objects in images.';
    expect(members('Counting with Rewards', abstract)).toEqual(['RLVR']);
  });
});

describe('the classifier’s families', () => {
  it('are the role members: a baseline named in the abstract is not one', () => {
    const c = classifyPaper({
      title: 'Variance-Floor GRPO for Long-Horizon Math',
      abstract:
        'We propose a variance floor for GRPO that stops noise amplification on nearly-solved prompts. We train Qwen2.5-7B with rule-based rewards; it improves over DAPO by 3 points on AIME.',
    });
    expect(c.grpoFamily).toBe(true);
    expect(c.families).toContain('GRPO');
    expect(c.families).toContain('RLVR');
    expect(c.families).not.toContain('DAPO');
  });

  it('give the card a reason per family, from the same text the classifier read (TeX removed)', () => {
    const reasons = familyReasons({
      title: 'Faster \\textbf{GRPO}',
      abstract: 'We train reasoning models with $\\textit{GRPO}$ and a cheaper rollout engine.',
    });
    expect(reasons.map((r) => r.family)).toEqual(['GRPO']);
    expect(reasons[0]!.reason).toContain('GRPO');
  });
});
