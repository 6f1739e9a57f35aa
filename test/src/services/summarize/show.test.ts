import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../../db/schema.ts';
import type { Note } from '../../../../db/schema.ts';
import { loadConfig } from '../../../../src/core/config.ts';
import { chooseSummary } from '../../../../src/services/summarize/show.ts';
import { validSummary } from '../../../helpers/fake-anthropic.ts';

const paper = { id: 7, abstract: 'We propose X. It works.', abstractZh: null, aiSummary: null };
const row = (fields: Partial<Summary>): Summary => ({
  id: 1,
  paperId: 7,
  lang: 'zh',
  promptVersion: 'v1',
  status: 'ok',
  model: 'claude-haiku-4-5',
  content: validSummary('x'),
  error: null,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: '0',
  attempts: 0,
  retryAt: null,
  basis: 'abstract',
  createdAt: new Date(),
  ...fields,
});
const note = {
  id: 1,
  paperId: 7,
  source: 'seed:002',
  lang: 'zh',
  heading: '标题 @everyone',
  motivation: '',
  method: ['点 <@1>'],
  results: '结果',
  takeaways: '',
  body: '全文',
} as Note;

describe('chooseSummary', () => {
  it('shows a generated summary first', () => {
    expect(chooseSummary(paper, 'zh', row({}), note)).toMatchObject({
      source: 'llm',
      label: null,
      model: 'claude-haiku-4-5',
      method: expect.any(Array),
    });
  });

  it('shows the Chinese note, mention-safe, when the summary failed or is missing', () => {
    const shown = chooseSummary(paper, 'zh', row({ status: 'failed', content: null }), note);
    expect(shown).toMatchObject({
      source: 'note',
      tldr: '标题 @\u200beveryone',
      method: ['点 <\u200b@1>'],
      motivation: null,
      results: '结果',
    });
    expect(shown.label).toBeTruthy();
    expect(chooseSummary(paper, 'zh', undefined, note).source).toBe('note');
  });

  it('falls back to the labelled extract in English, or when a stored summary no longer parses', () => {
    expect(chooseSummary(paper, 'en', undefined, undefined)).toMatchObject({
      source: 'fallback',
      tldr: 'We propose X. It works.',
    });
    expect(chooseSummary(paper, 'en', row({ lang: 'en', content: { tldr: 'old shape' } }), undefined).source).toBe(
      'fallback',
    );
  });
});

describe('LLM configuration', () => {
  it('has defaults for the budget, concurrency, batch threshold and schedule', () => {
    expect(loadConfig({}).llm).toEqual({
      dailyBudgetUsd: 1,
      concurrency: 4,
      batchThreshold: 20,
      batchPollMs: 30_000,
      batchMaxWaitMs: 1_800_000,
      timeoutMs: 180_000,
    });
    expect(loadConfig({}).ask.timeoutMs).toBe(30_000);
    expect(loadConfig({}).summarizeCron).toBe('45 6 * * *');
    expect(loadConfig({ LLM_DAILY_BUDGET_USD: '2.5', LLM_CONCURRENCY: '2' }).llm).toMatchObject({
      dailyBudgetUsd: 2.5,
      concurrency: 2,
    });
  });

  it('names bad LLM variables', () => {
    expect(() => loadConfig({ LLM_DAILY_BUDGET_USD: '-1', LLM_CONCURRENCY: '0', SUMMARIZE_CRON: 'soon' })).toThrow(
      /LLM_DAILY_BUDGET_USD[\s\S]*LLM_CONCURRENCY[\s\S]*SUMMARIZE_CRON/,
    );
  });
});
