import { describe, expect, it } from 'vitest';
import { CITATION_WEIGHT_CAP, readingWeight, weightedPick } from '../../../../src/core/papers/pick.ts';

describe('weightedPick', () => {
  const items = [
    { id: 'a', w: 1 },
    { id: 'b', w: 3 },
    { id: 'c', w: 0 },
  ];

  it('draws in proportion to the weights and never a zero weight', () => {
    expect(
      weightedPick(
        items,
        (i) => i.w,
        () => 0,
      )!.id,
    ).toBe('a');
    expect(
      weightedPick(
        items,
        (i) => i.w,
        () => 0.249,
      )!.id,
    ).toBe('a');
    expect(
      weightedPick(
        items,
        (i) => i.w,
        () => 0.25,
      )!.id,
    ).toBe('b');
    expect(
      weightedPick(
        items,
        (i) => i.w,
        () => 0.999999,
      )!.id,
    ).toBe('b');
  });

  it('returns undefined for nothing to draw', () => {
    expect(
      weightedPick(
        [],
        () => 1,
        () => 0.5,
      ),
    ).toBeUndefined();
    expect(
      weightedPick(
        [{ w: 0 }],
        (i) => i.w,
        () => 0.5,
      ),
    ).toBeUndefined();
  });
});

describe('readingWeight', () => {
  it('favours classifier confidence, upvotes and notes, log-scaling upvotes', () => {
    const base = readingWeight({ familyScore: 0, hfUpvotes: null, hasNote: false });
    expect(base).toBe(1);
    expect(readingWeight({ familyScore: 1, hfUpvotes: 0, hasNote: false })).toBe(3);
    expect(readingWeight({ familyScore: 0, hfUpvotes: 0, hasNote: true })).toBe(2.5);
    expect(readingWeight({ familyScore: 0, hfUpvotes: 1023, hasNote: false })).toBe(6);
    expect(readingWeight({ familyScore: 7, hfUpvotes: -5, hasNote: false })).toBe(3);
  });
});

describe('readingWeight and citations', () => {
  const base = { familyScore: 0.8, hfUpvotes: 4, hasNote: false };

  it('adds a light, capped citation signal, and nothing without counts', () => {
    expect(readingWeight({ ...base, citationCount: null })).toBe(readingWeight(base));
    expect(readingWeight({ ...base, citationCount: 31 })).toBeCloseTo(readingWeight(base) + 5 / 8);
    expect(readingWeight({ ...base, citationCount: 10 ** 6 })).toBeCloseTo(readingWeight(base) + CITATION_WEIGHT_CAP);
    // Less than a human note can add.
    expect(CITATION_WEIGHT_CAP).toBeLessThan(1.5);
  });
});
