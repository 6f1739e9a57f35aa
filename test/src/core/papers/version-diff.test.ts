import { describe, expect, it } from 'vitest';
import {
  benchmarksOf,
  contentWords,
  diffVersions,
  figuresOf,
  jaccardDistance,
  versionNote,
  WORDING_THRESHOLD,
  type VersionSnapshot,
} from '../../../../src/core/papers/version-diff.ts';

const TITLE = 'Balanced Clipping for Group Relative Policy Optimization';
const V1 =
  'Group Relative Policy Optimization (GRPO) clips token importance ratios symmetrically. We show that an asymmetric, ' +
  'balanced clip range keeps policy entropy from collapsing in long chain-of-thought training, and we train ' +
  'Qwen2.5-Math-7B to 44.1% on AIME 2024 without a KL penalty. The method adds no hyperparameters beyond the two ' +
  'clip bounds and works with token-level and sequence-level losses alike.';
const settings = (g: string, extra: Record<string, string> = {}) =>
  Object.entries({ group_size: g, clip_eps_high: '0.28', ...extra }).map(([key, value]) => ({ key, value }));
const v = (abstract: string, s: VersionSnapshot['settings'] = settings('8'), title = TITLE): VersionSnapshot => ({
  title,
  abstract,
  settings: s,
});
const distance = (a: string, b: string) =>
  jaccardDistance(contentWords(`${TITLE} ${a}`), contentWords(`${TITLE} ${b}`));

describe('diffVersions', () => {
  it('names a changed setting and a new benchmark, and calls the change meaningful', () => {
    const after = v(V1.replace('on AIME 2024', 'on AIME 2024 and 30.2% on AIME25'), settings('16'));
    const change = diffVersions(v(V1), after);
    expect(change.items).toEqual(['group size 8 -> 16', 'new AIME25 results']);
    expect(change.meaningful).toBe(true);
    expect(versionNote(3, '2026-11-20', change)).toBe('v3 (2026-11-20): group size 8 -> 16; new AIME25 results');
  });

  it('calls typo fixes, a rephrased sentence and reordered clauses wording only', () => {
    const edits = [
      V1.replace('symmetrically', 'symetrically'),
      V1.replace('keeps policy entropy from collapsing', 'prevents the collapse of policy entropy'),
      V1.replace(
        'The method adds no hyperparameters beyond the two clip bounds and works with token-level and sequence-level losses alike.',
        'It works with token-level and sequence-level losses alike, and adds no hyperparameters beyond the two clip bounds.',
      ),
    ];
    for (const edited of edits) {
      const change = diffVersions(v(V1), v(edited));
      expect(change.meaningful).toBe(false);
      expect(change.wordDistance).toBeLessThan(WORDING_THRESHOLD);
      expect(versionNote(2, '2026-11-20', change)).toBe('v2: wording only');
    }
    // The measured distances: a typo 0.05 (one word lost, one gained), a rephrase 0.1, a reorder 0.03 ("the method" became "it").
    expect(edits.map((e) => Math.round(distance(V1, e) * 100) / 100)).toEqual([0.05, 0.1, 0.03]);
  });

  it('calls an abstract with a new claim of its own (a sentence of new words) rewritten', () => {
    const added = `${V1} We further extend balanced clipping to multi-turn agentic tasks, where rewards arrive late and trajectories branch, and find the same stabilising effect on tool-calling policies.`;
    const change = diffVersions(v(V1), v(added));
    expect(change.wordDistance).toBeGreaterThanOrEqual(WORDING_THRESHOLD);
    expect(Math.round(change.wordDistance * 100) / 100).toBe(0.32);
    expect(change).toMatchObject({ items: ['abstract rewritten'], meaningful: true });
  });

  it('compares settings only when both versions were read, and a setting no longer stated alone is wording', () => {
    expect(diffVersions(v(V1, null), v(V1, settings('16'))).meaningful).toBe(false);
    const lost = diffVersions(v(V1, settings('8', { learning_rate: '1e-6' })), v(V1, settings('8')));
    expect(lost).toMatchObject({ items: ['learning rate no longer stated'], meaningful: false });
    expect(versionNote(2, null, lost)).toBe('v2: wording only (learning rate no longer stated)');
    const stated = diffVersions(v(V1, settings('8')), v(V1, settings('8', { kl_coef: '0.001' })));
    expect(stated).toMatchObject({ items: ['KL coefficient 0.001 (newly stated)'], meaningful: true });
    // The same value written differently is the same setting.
    expect(
      diffVersions(v(V1, settings('8', { learning_rate: '1e-6' })), v(V1, settings('8', { learning_rate: '1E-6 ' })))
        .items,
    ).toEqual([]);
  });

  it('misses a short new claim with no number or benchmark (the known limit of the threshold)', () => {
    const change = diffVersions(v(V1), v(`${V1} It also halves the training time.`));
    expect(change.meaningful).toBe(false);
    expect(Math.round(change.wordDistance * 100) / 100).toBe(0.05);
  });

  it('names a changed figure as before -> after', () => {
    const change = diffVersions(v(V1), v(V1.replace('44.1%', '47.3%')));
    expect(change.items).toEqual(['44.1% -> 47.3%']);
    expect(versionNote(2, null, change)).toBe('v2: 44.1% -> 47.3%');
  });
});

describe('benchmarksOf and figuresOf', () => {
  it('reads AIME 2024, AIME24 and MATH500 as benchmarks, not figures', () => {
    const { names, rest } = benchmarksOf('We report AIME 2024, AIME25, MATH500 and GSM8K, 7B and 44.1\\% pass@1.');
    expect([...names].sort()).toEqual(['AIME24', 'AIME25', 'GSM8K', 'MATH-500']);
    expect([...figuresOf(rest)].sort()).toEqual(['1', '44.1%', '7B']);
  });
});
