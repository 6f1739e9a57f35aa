import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedError } from '../../../../src/core/papers/candidate.ts';
import { hfDailyUrl, nextPageFromLink, parseHfDaily } from '../../../../src/services/sources/hf-daily.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/feeds/${name}`, import.meta.url), 'utf8');

describe('parseHfDaily', () => {
  const page0 = parseHfDaily(fixture('hf-daily-2026-03-03-p0.json'), '2026-03-03');

  it('keeps the good items of a page and skips the bad ones with reasons', () => {
    expect(page0.meta).toEqual({ count: 4 });
    expect(page0.candidates.map((c) => c.arxivId)).toEqual(['2603.00841', '2603.01187']);
    expect(page0.skipped).toEqual([
      { reason: expect.stringMatching(/^item 2: invalid item \(paper\.title: /), externalId: '2603.01455' },
      { reason: 'item 3: paper id "openreview-Xk9pQ2" is not an arXiv id', externalId: 'openreview-Xk9pQ2' },
    ]);
  });

  it('fills the candidate and every HF extra of a 2026-shape item', () => {
    expect(page0.candidates[0]).toMatchObject({
      source: 'hf-daily',
      externalId: '2603.00841',
      arxivId: '2603.00841',
      title: 'Advantage Shaping for Group Relative Policy Optimization: When Every Rollout Agrees',
      authors: ['Yuki Sato', 'Daniel Ferreira', 'Amara Nwosu'],
      categories: [],
      publishedOn: '2026-02-27',
      hf: {
        upvotes: 42,
        numComments: 5,
        githubUrl: 'https://github.com/example-lab/shaped-grpo',
        githubStars: 128,
        projectPage: 'https://example-lab.github.io/shaped-grpo/',
        organization: 'Example Reasoning Lab',
        aiSummary:
          'Advantage shaping restores a learning signal to GRPO groups whose rollouts all receive the same reward.',
        aiKeywords: ['GRPO', 'advantage shaping', 'reinforcement learning with verifiable rewards', 'entropy bonus'],
        dailyDate: '2026-03-03',
      },
    });
    expect(page0.candidates[0]?.version).toBeUndefined();
    expect(page0.candidates[0]?.abstract).toMatch(/^GRPO normalises rewards/);
  });

  it('falls back to the outer organization name and drops optional fields of the wrong type', () => {
    expect(page0.candidates[1]?.hf).toEqual({
      upvotes: 17,
      numComments: 0,
      organization: 'ugr-ml',
      dailyDate: '2026-03-03',
    });
    expect(page0.candidates[1]?.abstract).toContain('(n < 10)');
  });

  it('reads a short last page, keeping hidden authors and collapsing hard wraps', () => {
    const page1 = parseHfDaily(fixture('hf-daily-2026-03-03-p1.json'), '2026-03-03');
    expect(page1.meta).toEqual({ count: 1 });
    expect(page1.candidates[0]).toMatchObject({
      arxivId: '2603.02210',
      authors: ['Lena Hoffmann', 'Wei Zhang'],
      abstract:
        'GMPO replaces the arithmetic mean of token-level rewards in GRPO with a geometric mean, which is less sensitive to outlier importance ratios.',
      hf: {
        upvotes: 3,
        numComments: 1,
        projectPage: 'https://github.com/weizhang-rl/gmpo-long',
        dailyDate: '2026-03-03',
      },
    });
  });

  it('reads the October 2024 shape', () => {
    const feed = parseHfDaily(fixture('hf-daily-2024-shape.json'), '2024-10-25');
    expect(feed.skipped).toEqual([]);
    expect(feed.candidates.map((c) => [c.arxivId, c.publishedOn, c.hf?.upvotes, c.hf?.numComments])).toEqual([
      ['2410.18057', '2024-10-23', 31, 2],
      ['2410.17980', '2024-10-23', 8, 0],
    ]);
    expect(feed.candidates[0]?.title).toBe('Process Rewards Without Process Labels: Outcome-Supervised Step Verifiers');
    expect(feed.candidates[0]?.authors).toEqual(['Mira Kovacs', 'Jun Park']);
  });

  it('returns zero candidates for a weekend page', () => {
    expect(parseHfDaily('[]', '2026-03-07')).toEqual({ candidates: [], skipped: [], meta: { count: 0 } });
  });

  it('skips items that are not objects', () => {
    const feed = parseHfDaily('[null, 7, {"paper": {"id": "2603.00841", "title": "T"}}]', '2026-03-03');
    expect(feed.candidates.map((c) => c.arxivId)).toEqual(['2603.00841']);
    expect(feed.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^item 0: invalid item/),
      expect.stringMatching(/^item 1: invalid item/),
    ]);
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html></html>', /not JSON/],
    ['an empty body', '', /not JSON/],
    ['an error object', '{"error":"Too big: expected number to be <=100"}', /expected an array, got object: Too big/],
    ['null', 'null', /expected an array, got null/],
  ])('throws FeedError for %s', (_what, body, message) => {
    expect(() => parseHfDaily(body, '2026-03-03')).toThrow(FeedError);
    expect(() => parseHfDaily(body, '2026-03-03')).toThrow(message);
  });
});

describe('hfDailyUrl', () => {
  it('builds a daily_papers page URL with a 0-based page and a limit', () => {
    expect(hfDailyUrl('https://huggingface.co/api/', '2026-03-03', 1)).toBe(
      'https://huggingface.co/api/daily_papers?date=2026-03-03&p=1&limit=100',
    );
    expect(hfDailyUrl('https://huggingface.co/api', '2026-03-03', 0, 4)).toBe(
      'https://huggingface.co/api/daily_papers?date=2026-03-03&p=0&limit=4',
    );
  });

  it.each([
    ['a month date', () => hfDailyUrl('https://huggingface.co/api', '2026-03', 0)],
    ['a limit over 100', () => hfDailyUrl('https://huggingface.co/api', '2026-03-03', 0, 101)],
    ['a negative page', () => hfDailyUrl('https://huggingface.co/api', '2026-03-03', -1)],
  ])('refuses %s', (_what, build) => {
    expect(build).toThrow(RangeError);
  });
});

describe('nextPageFromLink', () => {
  it('sees rel="next" in a Link header, alone or among other links', () => {
    expect(nextPageFromLink('<https://huggingface.co/api/daily_papers?date=2026-03-03&p=1&limit=4>; rel="next"')).toBe(
      true,
    );
    expect(nextPageFromLink('<https://x/a?p=0>; rel="prev", <https://x/a?p=2>; rel=next')).toBe(true);
    expect(nextPageFromLink('<https://x/a?p=2>; rel="next last"')).toBe(true);
  });

  it('says no when there is no header or no next link', () => {
    expect(nextPageFromLink(null)).toBe(false);
    expect(nextPageFromLink('')).toBe(false);
    expect(nextPageFromLink('<https://x/a?p=0>; rel="prev"')).toBe(false);
    expect(nextPageFromLink('<https://x/a?p=0&rel=next>; rel="prev"')).toBe(false);
  });
});
