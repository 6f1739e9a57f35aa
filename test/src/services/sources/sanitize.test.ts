import { describe, expect, it } from 'vitest';
import type { PaperCandidate } from '../../../../src/core/papers/candidate.ts';
import { admitAll, admitCandidate, skippedCount } from '../../../../src/services/sources/sanitize.ts';

const candidate = (over: Partial<PaperCandidate> = {}): PaperCandidate => ({
  source: 'hf-daily',
  externalId: '2611.00001',
  arxivId: '2611.00001',
  title: 'A title',
  abstract: 'An abstract.',
  authors: ['Ada Lovelace'],
  categories: [],
  raw: {},
  ...over,
});

describe('admitCandidate', () => {
  it('cleans text of NUL, controls, lone surrogates, bidi overrides and zero-width characters, and caps it', () => {
    const c = admitCandidate(
      candidate({
        title: 'Clip\u0000ping \u202eevil\u200b \ud800x',
        abstract: 'y'.repeat(2_000_000),
        authors: ['A\u0000da', '\u200b', 'x'.repeat(1_000)],
      }),
    );
    expect(c).toMatchObject({ title: 'Clipping evil x', authors: ['Ada', 'x'.repeat(300)] });
    expect((c as PaperCandidate).abstract).toHaveLength(20_000);
  });

  it('rounds and clamps counters to a Postgres integer, keeps only http(s) links and real dates', () => {
    const c = admitCandidate(
      candidate({
        publishedOn: '+275760-09-13',
        hf: {
          upvotes: 3.7,
          githubStars: 1e308,
          numComments: -99999999999,
          githubUrl: 'javascript:alert(1)',
          projectPage: 'https://lab.example.edu/p',
          dailyDate: '2026-02-30',
        },
      }),
    ) as PaperCandidate;
    expect(c.hf).toMatchObject({
      upvotes: 4,
      githubStars: 2_147_483_647,
      numComments: 0,
      githubUrl: undefined,
      projectPage: 'https://lab.example.edu/p',
      dailyDate: undefined,
    });
    expect(c.publishedOn).toBeUndefined();
  });

  it('skips an item whose version cannot exist or whose title is empty, saying why', () => {
    expect(admitCandidate(candidate({ version: 2 ** 31 }))).toMatchObject({
      reason: expect.stringContaining('version'),
      externalId: '2611.00001',
    });
    expect(admitCandidate(candidate({ title: '\u200b\u0000 ' }))).toMatchObject({
      reason: expect.stringContaining('empty title'),
    });
  });

  it('cleans the raw item for jsonb: keys and strings, numbers, depth', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { d: deep };
    const c = admitCandidate(candidate({ raw: { 'k\u0000': 'v\u0000\ud800', n: Number.NaN, deep } })) as PaperCandidate;
    expect(JSON.stringify(c.raw)).not.toMatch(/\\u0000|\\ud800|bottom/);
    expect(c.raw).toMatchObject({ k: 'v', n: null });
  });
});

describe('admitAll', () => {
  it('reads at most the page limit and counts the rest as one skipped entry', () => {
    const { candidates, skipped } = admitAll(
      Array.from({ length: 10 }, (_, i) => i),
      (i) => candidate({ externalId: `2611.0000${i}` }),
      3,
    );
    expect(candidates).toHaveLength(3);
    expect(skipped).toEqual([{ reason: '7 items over the 3-item page limit', count: 7 }]);
    expect(skippedCount(skipped)).toBe(7);
  });
});
