import { describe, expect, it } from 'vitest';
import { Budget } from '../../../src/summarize/budget.ts';
import { costUsd, estimateCostUsd, priceFor } from '../../../src/summarize/pricing.ts';

describe('costUsd', () => {
  it('prices input, output, cache writes (1.25x) and cache reads (0.1x) from the list price', () => {
    // Haiku 4.5: $1 in, $5 out per million.
    expect(costUsd('claude-haiku-4-5', { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(1);
    expect(costUsd('claude-haiku-4-5', { input: 0, output: 1_000_000, cacheRead: 0, cacheWrite: 0 })).toBe(5);
    expect(costUsd('claude-haiku-4-5', { input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 1_000_000 })).toBe(1.35);
    expect(costUsd('claude-sonnet-4-5', { input: 1000, output: 400, cacheRead: 0, cacheWrite: 0 })).toBe(0.009);
  });

  it('halves batch calls and ignores a model id\'s date suffix', () => {
    const u = { input: 1000, output: 400, cacheRead: 0, cacheWrite: 0 };
    expect(costUsd('claude-haiku-4-5-20251001', u, { batch: true })).toBe(0.0015);
  });

  it('prices an unknown model as the dearest listed one, so the budget errs low', () => {
    expect(priceFor('claude-future-9')).toMatchObject({ known: false, input: 15, output: 75 });
  });

  it('estimates above a typical call: full max_tokens and the prompt as a cache write', () => {
    const typical = costUsd('claude-haiku-4-5', { input: 1000, output: 600, cacheRead: 0, cacheWrite: 0 });
    expect(estimateCostUsd('claude-haiku-4-5', 3000, 2000)).toBeGreaterThan(typical);
  });
});

describe('Budget', () => {
  it('refuses a reservation that would pass the cap, counting what is in flight', () => {
    const b = new Budget(1, 0.5);
    expect(b.tryReserve(0.3)).toBe(true);
    expect(b.tryReserve(0.3)).toBe(false);
    expect(b.exhausted).toBe(true);
    b.settle(0.3, 0.1);
    expect(b.spentUsd).toBeCloseTo(0.6);
    expect(b.tryReserve(0.3)).toBe(true);
  });
});
