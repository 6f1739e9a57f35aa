import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFeedState } from '../../db/queries/feed-state.ts';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { paperSources, papers } from '../../db/schema.ts';
import { runJob, type JobDeps } from '../../jobs/index.ts';
import { pollFeeds, pollFeedsJob } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed, hfPage, rssFeed, type HfItem, type RssItem } from '../helpers/feed-builders.ts';
import { fixture, startFeedServer, type FeedServer, type FakeResponse, feedEnv } from '../helpers/feed-server.ts';

const GRPO = {
  title: 'Group-Relative Policy Optimization with Adaptive Clipping for Math Reasoning',
  abstract:
    'We train language models with reinforcement learning from verifiable rewards. Building on GRPO, we normalise rewards within each group of sampled responses and adapt the clipping range, improving AIME accuracy of a 7B model.',
};

/** What the fake arXiv and HF serve on one day: RSS per category, API entries, HF items per date. */
interface World {
  rss: Record<string, FakeResponse>;
  api?: FakeResponse;
  hf?: Record<string, FakeResponse>;
}

const ok = (body: string, headers: Record<string, string> = {}): FakeResponse => ({ status: 200, body, headers });

function serve(server: FeedServer, world: World): void {
  server.route((url) => {
    if (url.pathname.startsWith('/rss/'))
      return world.rss[url.pathname.slice(5)] ?? ok(rssFeed(url.pathname.slice(5), '2026-11-16', []));
    if (url.pathname === '/api/query') return world.api ?? ok(apiFeed([]));
    if (url.pathname === '/api/daily_papers') return world.hf?.[url.searchParams.get('date') ?? ''] ?? ok('[]');
    return undefined;
  });
}

describe('poll-feeds', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let now = new Date('2026-11-16T06:15:00Z'); // a Monday
  const deps = (): JobDeps =>
    buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => now,
      config: loadConfig({
        ...feedEnv(server.base, 'cs.LG,cs.CL'),
      }),
    });
  const paper = async (arxivId: string) => (await t.db.select().from(papers).where(eq(papers.arxivId, arxivId)))[0];
  const rssDay = (date: string, lg: RssItem[], cl: RssItem[]) => ({
    'cs.LG': ok(rssFeed('cs.LG', date, lg)),
    'cs.CL': ok(rssFeed('cs.CL', date, cl)),
  });

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer();
  });

  it('stores the first poll of every source without announcing anything (no flood)', async () => {
    serve(server, {
      rss: rssDay('2026-11-16', [{ id: '2611.10001', ...GRPO }, { id: '2611.10002' }], [{ id: '2611.10003' }]),
      api: ok(apiFeed([{ id: '2611.09999', ...GRPO, title: 'RLVR at Scale: GRPO for Code Agents' }])),
      hf: { '2026-11-16': ok(hfPage([{ id: '2611.10001', ...GRPO, upvotes: 5 }], '2026-11-16')) },
    });
    const outcome = await runJob(pollFeedsJob, deps());
    expect(outcome).toMatchObject({ status: 'ok', stats: { new: 4, failed: 0 } });
    const [run] = await lastJobRuns(t.db, 'poll-feeds');
    expect(run).toMatchObject({
      status: 'ok',
      stats: { feeds: { 'arxiv-rss:cs.LG': { fetched: 2, new: 2, family: 1, health: 'ok' } } },
    });
    expect(await paper('2611.10001')).toMatchObject({ grpoFamily: true, hfUpvotes: 5, newsAt: null });
    expect((await t.db.select().from(papers)).filter((p) => p.newsAt !== null)).toEqual([]);
    expect(await getFeedState(t.db, 'hf-daily')).toMatchObject({
      cursor: '2026-11-16',
      health: 'ok',
      consecutiveFailures: 0,
    });
  });

  it("announces the next day's new papers once: cross-lists, HF items and replaces fold into known rows", async () => {
    now = new Date('2026-11-17T06:15:00Z');
    serve(server, {
      rss: rssDay(
        '2026-11-17',
        [
          { id: '2611.20001', ...GRPO, title: 'DAPO-Lite: Decoupled Clip and Dynamic Sampling on a Budget' },
          { id: '2611.10002', v: 2, type: 'replace', title: 'Paper 2611.10002 (revised)' },
        ],
        [
          {
            id: '2611.20001',
            ...GRPO,
            title: 'DAPO-Lite: Decoupled Clip and Dynamic Sampling on a Budget',
            type: 'cross',
            cats: ['cs.LG', 'cs.CL'],
          },
          { id: '2611.20002' },
        ],
      ),
      hf: {
        '2026-11-17': ok(
          hfPage(
            [{ id: '2611.20001', upvotes: 9, githubRepo: 'https://github.com/lab/dapo-lite', githubStars: 120 }],
            '2026-11-17',
          ),
        ),
      },
    });
    const stats = await pollFeeds(deps());
    expect(stats).toMatchObject({ new: 2, failed: 0 });
    const p = await paper('2611.20001');
    expect(p).toMatchObject({
      grpoFamily: true,
      hfUpvotes: 9,
      githubStars: 120,
      newsAt: now,
      categories: ['cs.LG', 'cs.CL'],
    });
    expect(
      (await t.db.select().from(paperSources).where(eq(paperSources.paperId, p!.id))).map((s) => s.source).sort(),
    ).toEqual(['arxiv-rss', 'hf-daily']);
    expect(await paper('2611.10002')).toMatchObject({
      arxivVersion: 2,
      title: 'Paper 2611.10002 (revised)',
      newsAt: null,
    });

    // The same poll again (a restart, a manual run): nothing new, nothing announced twice.
    const again = await pollFeeds(deps());
    expect(again).toMatchObject({ new: 0, updated: 0 });
    expect((await paper('2611.20001'))!.newsAt).toEqual(now);
  });

  it("reports a category that serves yesterday's batch as stale, and an empty weekday feed as empty", async () => {
    const tuesday = new Date('2026-11-17T06:15:00Z');
    now = new Date('2026-11-18T06:15:00Z');
    serve(server, {
      rss: {
        'cs.LG': ok(rssFeed('cs.LG', '2026-11-18', [])),
        'cs.CL': ok(
          rssFeed('cs.CL', '2026-11-17', [{ id: '2611.20001', ...GRPO, type: 'cross' }, { id: '2611.20002' }]),
        ),
      },
    });
    const stats = await pollFeeds(deps(), { sources: ['arxiv-rss'] });
    expect(stats.feeds).toMatchObject({
      'arxiv-rss:cs.CL': { health: 'stale' },
      'arxiv-rss:cs.LG': { health: 'empty' },
    });
    expect(await getFeedState(t.db, 'arxiv-rss:cs.CL')).toMatchObject({ health: 'stale', batchDate: '2026-11-17' });
    expect((await paper('2611.20001'))!.newsAt).toEqual(tuesday);
  });

  it('keeps going when one feed is malformed, and leaves its cursor for the next run', async () => {
    now = new Date('2026-11-19T06:15:00Z');
    const before = await getFeedState(t.db, 'hf-daily');
    serve(server, {
      rss: {
        'cs.LG': ok(rssFeed('cs.LG', '2026-11-19', [{ id: '2611.30001' }])),
        'cs.CL': ok(fixture('arxiv-rss-truncated.xml')),
      },
      api: ok(fixture('arxiv-unavailable.html'), { 'content-type': 'text/html' }),
      hf: { '2026-11-19': ok('{"error":"unexpected"}') },
    });
    const stats = await pollFeeds(deps());
    expect(stats).toMatchObject({ new: 1, failed: 3 });
    expect(await paper('2611.30001')).toMatchObject({ newsAt: now });
    const cl = await getFeedState(t.db, 'arxiv-rss:cs.CL');
    expect(cl).toMatchObject({ health: 'failing', consecutiveFailures: 1, batchDate: '2026-11-17' });
    expect(cl!.lastError).toBeTruthy();
    // HF read 11-17 and 11-18 (empty, stored) before 11-19 failed: the next run resumes at 11-18, not before.
    expect(before!.cursor).toBe('2026-11-17');
    expect(await getFeedState(t.db, 'hf-daily')).toMatchObject({ cursor: '2026-11-18', consecutiveFailures: 1 });
    expect(await paper('2611.20001')).toMatchObject({ hfUpvotes: 9, githubStars: 120 });
  });

  it('catches up on every Hugging Face day it missed, page by page, after a 429', async () => {
    now = new Date('2026-11-20T18:00:00Z');
    const page0: HfItem[] = Array.from({ length: 100 }, (_, i) => ({ id: `2611.4${String(i).padStart(4, '0')}` }));
    let throttled = false;
    server.route((url) => {
      if (url.pathname !== '/api/daily_papers') return undefined;
      const date = url.searchParams.get('date');
      if (date === '2026-11-19' && !throttled) {
        throttled = true;
        return { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' };
      }
      if (date === '2026-11-20')
        return ok(url.searchParams.get('p') === '1' ? hfPage([{ id: '2611.49999' }], date) : hfPage(page0, date));
      return ok('[]');
    });
    const stats = await pollFeeds(deps(), { sources: ['hf-daily'] });
    expect(stats).toMatchObject({ new: 101, failed: 0 });
    const dates = server.requests
      .filter((r) => r.path === '/api/daily_papers')
      .map((r) => `${r.query.get('date')}/${r.query.get('p')}`);
    expect(dates.slice(-4)).toEqual(['2026-11-19/0', '2026-11-19/0', '2026-11-20/0', '2026-11-20/1']);
    expect(await getFeedState(t.db, 'hf-daily')).toMatchObject({
      cursor: '2026-11-20',
      health: 'ok',
      consecutiveFailures: 0,
    });
  });

  it('sends a named User-Agent and the validators arXiv gave, and treats 304 on a new day as stale', async () => {
    now = new Date('2026-11-20T06:15:00Z');
    server.route((url, req) => {
      if (url.pathname !== '/rss/cs.LG')
        return url.pathname.startsWith('/rss/')
          ? ok(rssFeed('cs.CL', '2026-11-20', [{ id: '2611.50002' }]))
          : undefined;
      if (req.headers['if-none-match'] === '"v1"') return { status: 304 };
      return ok(rssFeed('cs.LG', '2026-11-20', [{ id: '2611.50001' }]), { etag: '"v1"' });
    });
    await pollFeeds(deps(), { sources: ['arxiv-rss'] });
    const last = server.requests.filter((r) => r.path === '/rss/cs.LG').at(-1)!;
    expect(last.headers['user-agent']).toMatch(/^grpo-digest\//);
    now = new Date('2026-11-23T06:15:00Z'); // the next Monday: the same response means an old batch
    const stats = await pollFeeds(deps(), { sources: ['arxiv-rss'] });
    expect(server.requests.filter((r) => r.path === '/rss/cs.LG').at(-1)!.headers['if-none-match']).toBe('"v1"');
    expect(stats.feeds).toMatchObject({ 'arxiv-rss:cs.LG': { status: 'not-modified', health: 'stale' } });
  });
});
