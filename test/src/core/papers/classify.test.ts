import { describe, expect, it } from 'vitest';
import {
  acronymRegex,
  anyReinforcementLearning,
  evaluate,
  loadSet,
  loadTuned,
  loadUnseen,
  rulesClassifier,
  type LabelledPaper,
  type Metrics,
} from '../../../../bench/classify.ts';
import { classifyPaper, DECISION_THRESHOLD, GREY_ZONE, ruleEvidence } from '../../../../src/core/papers/classify.ts';
import { features } from '../../../../src/core/papers/learned.ts';
import { MAX_TOPICS, TOPIC_SLUGS } from '../../../../src/core/papers/topics.ts';

const GRPO_PAPER = {
  title: 'Stabilizing GRPO for Long-Horizon Math Reasoning',
  abstract:
    'Group Relative Policy Optimization (GRPO) has become the default algorithm for training reasoning language models with verifiable rewards. We show that its per-group standard-deviation normalisation amplifies noise on nearly-solved prompts, and propose a variance-floor fix. Trained on 40K math problems with rule-based rewards, Qwen2.5-7B improves by 4 points on AIME 2024 over GRPO and DAPO baselines.',
};

const DAPO_CLASH = {
  title: 'DAPO: Depth-Aware Pyramid Occupancy for Monocular 3D Scene Completion',
  abstract:
    'Monocular semantic scene completion predicts dense 3D occupancy from a single image. We propose DAPO, a depth-aware pyramid that lifts image features into a multi-scale voxel volume guided by estimated depth uncertainty. On SemanticKITTI and SSCBench, DAPO improves mIoU by 2.1 points over the previous best camera-only method while running at 12 frames per second.',
};

const DPO_ONLY = {
  title: 'Margin-Scaled Direct Preference Optimization for Helpful Dialogue',
  abstract:
    'Direct Preference Optimization (DPO) aligns language models with human preferences without a reward model or reinforcement learning. We observe that DPO treats all preference pairs alike and propose scaling the margin by annotator agreement. On AlpacaEval 2 and MT-Bench, margin-scaled DPO improves win rates over DPO and SimPO while remaining an offline method trained on fixed preference pairs.',
};

const FLOW_GRPO = {
  title: 'Flow-GRPO: Training Flow Matching Models via Online RL',
  abstract:
    "We propose Flow-GRPO, the first method integrating online reinforcement learning (RL) into flow matching models. Our approach uses an ODE-to-SDE conversion that transforms a deterministic Ordinary Differential Equation into an equivalent Stochastic Differential Equation that matches the original model's marginal distribution at all timesteps, enabling statistical sampling for RL exploration. For complex compositions, RL-tuned SD3.5 generates nearly perfect object counts, spatial relations, and fine-grained attributes, boosting GenEval accuracy from 63% to 95% in text-to-image generation.",
};

const ROBOT_PPO = {
  title: 'Robust Quadruped Locomotion via Proximal Policy Optimization with Terrain Curricula',
  abstract:
    'We train a locomotion policy for a quadruped robot in simulation with PPO and transfer it to hardware. A terrain curriculum and domain randomisation make the policy robust to slopes and pushes, outperforming a model-predictive controller on rough terrain.',
};

describe('classifyPaper', () => {
  it('calls a paper with GRPO in the title positive, with family GRPO (not its DAPO baseline) and the title match as a reason', () => {
    const c = classifyPaper(GRPO_PAPER);
    expect(c.grpoFamily).toBe(true);
    expect(c.score).toBeGreaterThan(0.9);
    expect(c.families[0]).toBe('GRPO');
    expect(c.families).toEqual(['GRPO', 'RLVR']);
    expect(c.reasons).toContain('title: "GRPO"');
    expect(c.reasons.some((r) => r.startsWith('abstract: '))).toBe(true);
  });

  it('calls a non-RL method that happens to be named DAPO negative, and says it is a name clash', () => {
    const c = classifyPaper(DAPO_CLASH);
    expect(c.grpoFamily).toBe(false);
    expect(c.score).toBeLessThan(0.1);
    expect(c.families).toEqual([]);
    expect(c.reasons).toContain('negative: name clash ("DAPO" without any RL context)');
  });

  it('calls a DPO-only preference-optimisation paper negative, with the DPO-only reason', () => {
    const c = classifyPaper(DPO_ONLY);
    expect(c.grpoFamily).toBe(false);
    expect(c.reasons).toContain('negative: DPO-only');
  });

  it('calls Flow-GRPO for image generation positive, with family Flow-GRPO (not GRPO twice) and topic generation', () => {
    const c = classifyPaper(FLOW_GRPO);
    expect(c.grpoFamily).toBe(true);
    expect(c.families).toEqual(['Flow-GRPO']);
    expect(c.topics).toContain('generation');
    expect(c.reasons[0]).toBe('title: "Flow-GRPO"');
  });

  it('calls classic robotics RL with PPO negative: no language model or generator is trained', () => {
    const c = classifyPaper(ROBOT_PPO);
    expect(c.grpoFamily).toBe(false);
    expect(c.reasons).toContain('negative: classic deep RL (robotics/games), no language model');
  });

  it('is deterministic and returns well-formed output for every labelled paper', () => {
    const papers = [...loadTuned(), ...loadUnseen()];
    for (const p of papers) {
      const first = classifyPaper(p);
      expect(classifyPaper({ title: p.title, abstract: p.abstract })).toEqual(first);
      expect(first.score).toBeGreaterThanOrEqual(0);
      expect(first.score).toBeLessThanOrEqual(1);
      expect(first.grpoFamily).toBe(first.score >= DECISION_THRESHOLD);
      expect(first.reasons.length).toBeGreaterThan(0);
      for (const t of first.topics) expect(TOPIC_SLUGS).toContain(t);
      expect(first.topics.length).toBeLessThanOrEqual(MAX_TOPICS);
    }
  });

  it('fills families for positives whose title names one (a title names what the paper is about), and never for negatives', () => {
    for (const p of loadTuned()) {
      const c = classifyPaper(p);
      if (!c.grpoFamily) expect(c.families).toEqual([]);
      else if (/GRPO\b/.test(p.title) && !/\b(?:vs\.?|versus|beyond|than|without)\b/i.test(p.title))
        expect(c.families.some((f) => f.includes('GRPO'))).toBe(true);
    }
  });

  it('puts the decision threshold inside the grey zone reserved for optional LLM adjudication', () => {
    expect(GREY_ZONE.min).toBeLessThan(DECISION_THRESHOLD);
    expect(GREY_ZONE.max).toBeGreaterThan(DECISION_THRESHOLD);
  });

  it('copes with empty and TeX-marked-up input', () => {
    expect(classifyPaper({ title: '', abstract: '' }).grpoFamily).toBe(false);
    const tex = classifyPaper({
      title: '\\textbf{DAPO} revisited',
      abstract: 'We train LLMs with $\\textit{reinforcement learning}$ and verifiable rewards, using \\emph{GRPO}.',
    });
    expect(tex.grpoFamily).toBe(true);
    expect(tex.families).toContain('DAPO');
  });
});

describe('evaluation on the labelled sets', () => {
  const sets = {
    dev: loadSet('dev'),
    dev2: loadSet('dev2'),
    holdout: loadSet('holdout'),
    holdout2: loadSet('holdout2'),
    unseen: loadUnseen(),
  };
  const show = (set: string, name: string, m: Metrics) =>
    console.log(
      `[classifier eval] ${set.padEnd(8)} ${name.padEnd(16)} precision=${m.precision.toFixed(3)} recall=${m.recall.toFixed(3)} F1=${m.f1.toFixed(3)} (TP ${m.tp}, FP ${m.fp}, FN ${m.fn}, n=${m.n})`,
    );

  it('has sets of the agreed shape: dev2 >=100, holdout >=60 and holdout2 >=80 papers, each about half positive, at most ~40% from seeds', () => {
    const all: LabelledPaper[] = [...sets.dev, ...sets.dev2, ...sets.unseen];
    expect(all.length).toBeGreaterThanOrEqual(400);
    expect(sets.dev2.length).toBeGreaterThanOrEqual(100);
    expect(sets.holdout.length).toBeGreaterThanOrEqual(60);
    expect(sets.holdout2.length).toBeGreaterThanOrEqual(80);
    // dev2 is real papers only, chosen for the hard cases; ids are unique across every set (checked below).
    expect(sets.dev2.every((p) => p.source === 'real')).toBe(true);
    for (const s of [sets.dev, sets.dev2, sets.holdout, sets.holdout2])
      expect(Math.abs(s.filter((p) => p.label).length / s.length - 0.5)).toBeLessThan(0.1);
    expect(all.filter((p) => p.source === 'seed').length / all.length).toBeLessThanOrEqual(0.41);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
  });

  for (const set of ['dev', 'dev2', 'holdout', 'holdout2'] as const) {
    it(`beats both baselines on F1 on ${set}`, () => {
      const rules = evaluate(rulesClassifier, sets[set]);
      const anyRl = evaluate(anyReinforcementLearning, sets[set]);
      const acronym = evaluate(acronymRegex, sets[set]);
      show(set, 'rules', rules);
      show(set, 'any-RL baseline', anyRl);
      show(set, 'acronym baseline', acronym);
      expect(rules.f1).toBeGreaterThan(anyRl.f1);
      expect(rules.f1).toBeGreaterThan(acronym.f1);
    });
  }

  // Regression floors, not the goal (0.90 / 0.90 on data the rules were not tuned on). The floors sit just
  // below what the one honest evaluation of each unseen set measured, so a rule change that loses a paper or
  // two fails here instead of going unnoticed; they were not met by tuning on these sets.
  // Rules 2026-11-21.3 (third round, tuned on dev + dev2 only; the unseen sets were measured once, in aggregate):
  //   holdout   measured 0.935 / 0.829 (70 papers; unchanged from the second round)
  //   holdout2  measured 0.950 / 0.905 (84 papers; second round 0.921 / 0.833)
  //   unseen    measured 0.944 / 0.870 (both together, 154 papers; second round 0.928 / 0.831)
  const FLOORS = { holdout: [0.9, 0.8], holdout2: [0.92, 0.88], unseen: [0.92, 0.85] } as const;
  for (const [set, [precision, recall]] of Object.entries(FLOORS) as [
    keyof typeof FLOORS,
    readonly [number, number],
  ][]) {
    it(`keeps ${set} precision >= ${precision} and recall >= ${recall}`, () => {
      const m = evaluate(rulesClassifier, sets[set]);
      show(set, 'rules', m);
      expect(m.precision).toBeGreaterThanOrEqual(precision);
      expect(m.recall).toBeGreaterThanOrEqual(recall);
    });
  }
});

describe('the learned half of the filter', () => {
  it("keeps the rules' reasons and adds the learned features that moved the decision", () => {
    const c = classifyPaper({
      title: 'Dependency-Aware Policy Optimization for Terminal Agents',
      abstract:
        'We train terminal agents with reinforcement learning from verifiable outcome rewards, using group-relative advantages over sampled rollouts.',
    });
    expect(c.grpoFamily).toBe(true);
    expect(c.reasons.some((r) => r.startsWith('title:') || r.startsWith('abstract:'))).toBe(true);
    expect(c.reasons.length).toBeLessThanOrEqual(8);
  });

  it("scores with the model's threshold on the shared 0.5 decision line", () => {
    for (const p of loadUnseen()) {
      const c = classifyPaper(p);
      expect(c.grpoFamily).toBe(c.score >= DECISION_THRESHOLD);
    }
  });

  it("reads its features from the rules' evidence and the paper's words", () => {
    const f = features(
      ruleEvidence({
        title: 'Scaling RLVR for Code',
        abstract: 'We apply GRPO to code generation with unit-test rewards.',
      }),
    );
    expect(f.get('rule:raw')).toBeGreaterThan(0);
    expect(f.get('family:GRPO')).toBeGreaterThan(0);
    expect(f.get('t:rlvr')).toBe(1);
    expect(f.get('w:unit test')).toBe(1);
  });
});
