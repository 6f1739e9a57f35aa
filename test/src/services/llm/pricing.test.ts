import { describe, expect, it } from 'vitest';
import { baseModelId, checkModel, MODELS } from '../../../../src/services/llm/models.ts';
import {
  costUsd,
  estimateCostUsd,
  estimateRequestUsd,
  priceFor,
  promptChars,
} from '../../../../src/services/llm/pricing.ts';
import { summaryRequest } from '../../../../src/services/summarize/prompt.ts';
import { loadConfig } from '../../../../src/core/config.ts';

describe('costUsd', () => {
  it('prices input, output, cache writes (1.25x) and cache reads (0.1x) from the list price', () => {
    // Haiku 4.5: $1 in, $5 out per million.
    expect(costUsd('claude-haiku-4-5', { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(1);
    expect(costUsd('claude-haiku-4-5', { input: 0, output: 1_000_000, cacheRead: 0, cacheWrite: 0 })).toBe(5);
    expect(costUsd('claude-haiku-4-5', { input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 1_000_000 })).toBe(
      1.35,
    );
    expect(costUsd('claude-sonnet-4-5', { input: 1000, output: 400, cacheRead: 0, cacheWrite: 0 })).toBe(0.009);
  });

  it("uses a model's own cache-read fraction where it differs (Sonnet 5.5: 0.05x)", () => {
    expect(costUsd('claude-sonnet-5-5', { input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 0 })).toBe(0.1);
  });

  it("halves batch calls and ignores a model id's date suffix", () => {
    const u = { input: 1000, output: 400, cacheRead: 0, cacheWrite: 0 };
    expect(costUsd('claude-haiku-4-5-20251001', u, { batch: true })).toBe(0.0015);
  });

  it('estimates above a typical call: full max_tokens and the prompt as a cache write', () => {
    const typical = costUsd('claude-haiku-4-5', { input: 1000, output: 600, cacheRead: 0, cacheWrite: 0 });
    expect(estimateCostUsd('claude-haiku-4-5', 3000, 2000)).toBeGreaterThan(typical);
  });

  it('estimates a request from what it sends: system and user text, and its max_tokens', () => {
    const paper = {
      id: 1,
      arxivId: '2611.00001',
      title: 'T',
      abstract: 'A'.repeat(1200),
      aiSummary: null,
      authors: [],
      categories: [],
    };
    const req = summaryRequest(paper, 'en', 'claude-haiku-4-5');
    expect(promptChars(req)).toBeGreaterThan(1200 + 1500);
    expect(estimateRequestUsd(req)).toBe(estimateCostUsd('claude-haiku-4-5', promptChars(req), req.max_tokens));
    expect(estimateRequestUsd({ ...req, max_tokens: 4000 })).toBeGreaterThan(estimateRequestUsd(req));
  });
});

describe('the model table', () => {
  it('matches real ids: dated snapshots, -latest and -0 aliases', () => {
    expect(baseModelId('claude-3-5-haiku-20241022')).toBe('claude-3-5-haiku');
    expect(baseModelId('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
    expect(baseModelId('claude-sonnet-4-0')).toBe('claude-sonnet-4');
    expect(priceFor('claude-3-5-haiku-20241022')).toMatchObject({ known: true, input: 0.8, output: 4 });
    expect(priceFor('claude-opus-4-20250514')).toMatchObject({ known: true, input: 15, output: 75 });
  });

  it('prices the current models at their own rows, not the dearest', () => {
    for (const [id, input, output] of [
      ['claude-sonnet-5', 2, 10],
      ['claude-opus-5-5', 4, 20],
      ['claude-haiku-5-5', 0.1, 0.5],
      ['claude-opus-4-8', 5, 25],
    ] as const) {
      expect(priceFor(id)).toMatchObject({ known: true, input, output });
    }
  });

  it('prices an unknown model as the dearest listed one, so the budget errs low', () => {
    const dearest = Math.max(...MODELS.map((m) => m.output));
    expect(priceFor('claude-future-9')).toMatchObject({ known: false, output: dearest });
  });

  it('refuses a model without structured outputs, warns about an unknown or unverified one, accepts the default', () => {
    expect(checkModel(loadConfig({}).anthropic.model)).toEqual({});
    expect(checkModel('claude-3-5-haiku-20241022').error).toMatch(
      /^ANTHROPIC_MODEL=claude-3-5-haiku-20241022 does not support structured outputs.*Use one of: claude-haiku-4-5/,
    );
    expect(checkModel('claude-sonnet-4-20250514').error).toBeDefined();
    expect(checkModel('claude-future-9')).toMatchObject({
      warning: expect.stringMatching(
        /not in src\/services\/llm\/models\.ts: spend is counted at the dearest listed price/,
      ),
    });
    expect(checkModel('claude-sonnet-5-5')).toMatchObject({ warning: expect.stringMatching(/not verified/) });
  });
});
