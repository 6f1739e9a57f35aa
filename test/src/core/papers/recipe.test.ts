import { describe, expect, it } from 'vitest';
import { cardRecipe, type RecipePaper } from '../../../../src/core/papers/recipe.ts';
import { paperKind } from '../../../../src/core/papers/kind.ts';
import { recipeField } from '../../../../src/core/views/training.ts';
import type { Setting } from '../../../../src/core/papers/settings.ts';

const method = (over: Partial<RecipePaper> = {}): RecipePaper => ({
  title: 'Span-Normalised Advantages for Math Reasoning',
  abstract:
    'We propose a new advantage estimator and train a 7B model with GRPO and rule-based rewards on math problems.',
  families: ['GRPO', 'RLVR'],
  grpoFamily: true,
  ...over,
});
const fieldText = (p: RecipePaper, items: Setting[] = []) => {
  const f = recipeField(cardRecipe(p, items));
  return f ? `${f.name}\n${f.value}` : undefined;
};

describe('paperKind', () => {
  it('tells surveys, analyses and benchmarks from papers that train something', () => {
    expect(paperKind({ title: 'A Survey of Reinforcement Learning for Reasoning Models', abstract: '' })).toBe(
      'survey',
    );
    expect(
      paperKind({
        title: 'Does RL Really Expand Reasoning? An Empirical Study',
        abstract: 'We conduct a systematic study of pass@k.',
      }),
    ).toBe('analysis');
    expect(paperKind({ title: 'AgentBench-R: Evaluating Tool Agents', abstract: 'We introduce a benchmark.' })).toBe(
      'benchmark',
    );
    expect(paperKind(method())).toBe('trains');
  });
});

describe('cardRecipe', () => {
  it('gives a survey no recipe, even one in the GRPO family that names GRPO', () => {
    const survey = method({ title: 'A Survey of Group Relative Policy Optimization', abstract: 'We survey GRPO.' });
    expect(cardRecipe(survey, [])).toMatchObject({ kind: 'none' });
    expect(fieldText(survey)).toBeUndefined();
  });

  it('gives a paper outside the family, or one naming no family with no settings, no recipe', () => {
    expect(fieldText(method({ grpoFamily: false }))).toBeUndefined();
    expect(fieldText(method({ families: [] }))).toBeUndefined();
  });

  it("labels a family default as the family's, never as the paper's, and shows no caveat that is not about the paper", () => {
    const text = fieldText(method())!;
    expect(text).toMatch(/No settings stated; the closest family recipe is GRPO's/);
    expect(text).toMatch(/GRPOConfig\(\n\s+\S/);
    // GRPO's process-supervision gap is about papers with step rewards, not this one.
    expect(text).not.toMatch(/process-supervision/);
    const prm = fieldText(method({ abstract: `${method().abstract} We add a process reward model.` }))!;
    expect(prm).toMatch(/TRL cannot express: a process-supervision variant/);
  });

  it('never shows an empty GRPOConfig: a family with no arguments shows its trainer, one with no TRL form says so', () => {
    const rlvr = fieldText(method({ families: ['RLVR'] }))!;
    expect(rlvr).not.toMatch(/GRPOConfig\(\s*\)/);
    expect(rlvr).toMatch(/closest family recipe is RLVR's[\s\S]*GRPOTrainer\(reward_funcs=/);
    expect(rlvr).not.toMatch(/sandboxed code execution/);
    const disco = fieldText(method({ families: ['DisCO', 'GRPO'] }))!;
    expect(disco).toMatch(/TRL has no form of DisCO/);
    expect(disco).not.toMatch(/GRPOConfig/);
    expect(disco).toMatch(/TRL cannot express: the discriminative objective/);
  });

  it("builds the recipe from the paper's stated settings, filling gaps only from a family it belongs to", () => {
    const items: Setting[] = [
      { key: 'group_size', value: '16', evidence: 'we sample 16 responses per prompt' },
      { key: 'clip_eps_high', value: '0.28', evidence: 'an upper clip of 0.28' },
    ];
    const text = fieldText(method({ families: ['DAPO'] }), items)!;
    expect(text).toMatch(/From the paper's stated settings; arguments it does not state come from DAPO's TRL entry/);
    expect(text).toContain('num_generations=16,');
    expect(text).toContain('loss_type="dapo",');
    const alone = fieldText(method({ families: [] }), items)!;
    expect(alone).toMatch(/From the paper's stated settings only/);
    expect(alone).not.toContain('loss_type');
  });
});
