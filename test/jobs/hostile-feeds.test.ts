import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { eq, inArray, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { status } from '../../commands/status.ts';
import { getFeedState, listFeedStates } from '../../db/queries/feed-state.ts';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { paperSources, papers } from '../../db/schema.ts';
import { runJob, type JobDeps } from '../../jobs/index.ts';
import { pollFeeds, pollFeedsJob, type FeedStats } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { digestHeader } from '../../src/core/digest/header.ts';
import { labelsFor } from '../../src/core/digest/labels.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { createLogger } from '../../src/core/log.ts';
import { commandInput, replyText } from '../commands/helpers.ts';
import { createTestDb } from '../helpers/db.ts';
import { rssFeed, type RssItem } from '../helpers/feed-builders.ts';
import { startFeedServer, type FakeResponse, type FeedServer, feedEnv } from '../helpers/feed-server.ts';

const GRPO = {
  title: 'Group-Relative Policy Optimization with Adaptive Clipping for Math Reasoning',
  abstract:
    'We train language models with reinforcement learning from verifiable rewards. Building on GRPO, we normalise rewards within each group of sampled responses and adapt the clipping range.',
};

const ok = (body: string, headers: Record<string, string> = {}): FakeResponse => ({ status: 200, body, headers });

/** One Hugging Face daily-papers item with any paper fields (hostile ones included). */
const hfItem = (id: string, paper: Record<string, unknown> = {}) => ({
  paper: {
    id,
    title: `Paper ${id}`,
    summary: `We study problem ${id}.`,
    authors: [{ name: 'Ada Lovelace' }],
    publishedAt: '2026-11-16T00:00:00.000Z',
    upvotes: 1,
    ...paper,
  },
  numComments: 0,
});

/** A body produced as it is read: `chunks` pieces of `piece`, between a head and a tail. */
function repeated(head: string, piece: string, chunks: number, tail: string): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i === 0) this.push(head);
      if (i < chunks) this.push(piece.repeat(1_000));
      else if (i === chunks) this.push(tail);
      else this.push(null);
      i++;
    },
  });
}

describe('hostile feeds', { timeout: 60_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let now = new Date('2026-11-16T06:15:00Z'); // a Monday
  const logLines: string[] = [];
  const log = createLogger('info', { destination: { write: (line) => void logLines.push(line) } });
  const config = () =>
    loadConfig({
      ...feedEnv(server.base, 'cs.LG,cs.CL'),
    });
  const deps = (): JobDeps => buildDeps({ db: t.db, sql: t.sql, log, now: () => now, config: config() });
  const paper = async (arxivId: string) => (await t.db.select().from(papers).where(eq(papers.arxivId, arxivId)))[0];
  /** RSS per category (missing: an empty feed), API empty, HF per date (missing: empty). */
  const serve = (rss: Record<string, FakeResponse>, hf: Record<string, FakeResponse> = {}) =>
    server.route((url) => {
      const date = url.pathname.startsWith('/rss/') ? now.toISOString().slice(0, 10) : '';
      if (url.pathname.startsWith('/rss/'))
        return rss[url.pathname.slice(5)] ?? ok(rssFeed(url.pathname.slice(5), date, []));
      if (url.pathname === '/api/query')
        return ok('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>empty</title></feed>');
      if (url.pathname === '/api/daily_papers')
        return (url.searchParams.get('p') === '0' && hf[url.searchParams.get('date') ?? '']) || ok('[]');
      return undefined;
    });

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer();
  });

  it('stores the good papers beside each kind of bad value, normalised or skipped and counted', async () => {
    const rssItems: RssItem[] = [
      { id: '2611.10001', ...GRPO },
      { id: '2611.10002', title: 'NUL\u0000 in a title' },
      { id: '2611.10003', abstract: 'Zero\u200bwidth, \u202eoverride and \u001b[31mescape in an abstract.' },
      { id: '2611.10004', v: 2147483648 },
      { id: '2611.10005', abstract: `A very long abstract. ${'tokens of a runaway abstract '.repeat(40_000)}` },
    ];
    const lgFeed = rssFeed('cs.LG', '2026-11-16', rssItems);
    const hf = JSON.stringify([
      hfItem('2611.20001', { upvotes: 3.7 }),
      hfItem('2611.20002', { upvotes: 2147483648 }),
      hfItem('2611.20003', { upvotes: -99999999999 }),
      hfItem('2611.20004', { githubRepo: 'https://github.com/lab/repo', githubStars: 1e308 }),
      hfItem('2611.20005', { title: 'Title with \u0000 NUL and \u202e override' }),
      hfItem('2611.20006', { summary: 'Lone \ud800 surrogate and a \u0000 NUL in a summary.' }),
    ]);
    serve({ 'cs.LG': ok(lgFeed) }, { '2026-11-16': ok(hf) });

    const stats = await pollFeeds(deps());
    const feeds = stats.feeds as Record<string, FeedStats>;
    expect(feeds['arxiv-rss:cs.LG']).toMatchObject({ status: 'ok', fetched: 5, new: 4, skipped: 1 });
    expect(feeds['hf-daily']).toMatchObject({ status: 'ok', fetched: 6, new: 6, skipped: 0 });
    expect(stats.failed).toBe(0);

    expect(await paper('2611.10001')).toMatchObject({ grpoFamily: true });
    expect((await paper('2611.10002'))!.title).toBe('NUL in a title');
    expect((await paper('2611.10003'))!.abstract).toBe('Zerowidth, override and [31mescape in an abstract.');
    expect(await paper('2611.10004')).toBeUndefined();
    expect((await paper('2611.10005'))!.abstract.length).toBeLessThanOrEqual(20_000);
    expect((await paper('2611.20001'))!.hfUpvotes).toBe(4);
    expect((await paper('2611.20002'))!.hfUpvotes).toBe(2_147_483_647);
    expect((await paper('2611.20003'))!.hfUpvotes).toBe(0);
    expect(await paper('2611.20004')).toMatchObject({
      githubStars: 2_147_483_647,
      githubUrl: 'https://github.com/lab/repo',
    });
    expect((await paper('2611.20005'))!.title).toBe('Title with NUL and override');
    expect((await paper('2611.20006'))!.abstract).toBe('Lone surrogate and a NUL in a summary.');
    // Provenance is stored for every admitted item, cleaned the same way.
    const raw = await t.db
      .select({ raw: paperSources.raw })
      .from(paperSources)
      .where(eq(paperSources.externalId, '2611.20006'));
    expect(JSON.stringify(raw)).not.toMatch(/\\u0000|\\ud800/);
    // The skipped item is logged once, with its reason.
    const skippedLine = logLines.find((l) => l.includes('feed items skipped'));
    expect(JSON.parse(skippedLine!)).toMatchObject({
      feed: 'arxiv-rss:cs.LG',
      skipped: 1,
      examples: [{ externalId: '2611.10004v2147483648', reason: expect.stringContaining('version') }],
    });
  });

  it('keeps the RSS pages stored before one that fails, stores nothing of that page, and the rest on the next run', async () => {
    now = new Date('2026-11-17T06:15:00Z');
    const many: RssItem[] = Array.from({ length: 500 }, (_, i) => ({
      id: `2611.3${String(i).padStart(4, '0')}`,
      ...(i % 10 === 0 && GRPO),
    }));
    serve({
      'cs.LG': ok(rssFeed('cs.LG', '2026-11-17', many)),
      'cs.CL': ok(rssFeed('cs.CL', '2026-11-17', [{ id: '2611.40001', ...GRPO }])),
    });
    // A value Postgres refuses at item 450: its page (items 400-499, the last of 200-item pages) fails.
    await t.sql.unsafe(`create function refuse_item() returns trigger language plpgsql as $$
      begin
        if new.arxiv_id = '2611.30450' then raise exception 'string is too long for tsvector (1100000 bytes, max 1048575 bytes)'; end if;
        return new;
      end $$`);
    await t.sql.unsafe(
      'create trigger refuse_item before insert on papers for each row execute function refuse_item()',
    );
    const before = await getFeedState(t.db, 'arxiv-rss:cs.LG');

    const outcome = await runJob(pollFeedsJob, deps());
    expect(outcome).toMatchObject({
      status: 'ok',
      stats: {
        failed: 1,
        feeds: { 'arxiv-rss:cs.LG': { status: 'failed', new: 400 }, 'arxiv-rss:cs.CL': { status: 'ok', new: 1 } },
      },
    });
    const firstRun = now;
    const storedFirst = await t.db
      .select({ arxivId: papers.arxivId })
      .from(papers)
      .where(like(papers.arxivId, '2611.3%'));
    expect(storedFirst.map((p) => p.arxivId).sort()).toEqual(many.slice(0, 400).map((i) => i.id));
    expect(await paper('2611.40001')).toMatchObject({ newsAt: now });
    const lg = await getFeedState(t.db, 'arxiv-rss:cs.LG');
    expect(lg).toMatchObject({
      health: 'failing',
      consecutiveFailures: 1,
      batchKey: before!.batchKey,
      etag: before!.etag,
    });

    await t.sql.unsafe('drop trigger refuse_item on papers');
    now = new Date('2026-11-17T07:15:00Z');
    expect(await pollFeeds(deps(), { sources: ['arxiv-rss'] })).toMatchObject({ failed: 0 });
    const stored = await t.db.select({ newsAt: papers.newsAt }).from(papers).where(like(papers.arxivId, '2611.3%'));
    expect(stored).toHaveLength(500);
    // Each paper is news once: when it was first stored.
    expect(stored.filter((p) => p.newsAt?.getTime() === firstRun.getTime())).toHaveLength(400);
    expect(stored.filter((p) => p.newsAt?.getTime() === now.getTime())).toHaveLength(100);
  });

  it('shows users a short cause of a database error, never the statement; the log gets it bounded', async () => {
    const lg = await getFeedState(t.db, 'arxiv-rss:cs.LG');
    // The first run's failure is still the last error recorded (the second run succeeded).
    expect(lg!.lastError).toBe(
      'database error P0001: string is too long for tsvector (1100000 bytes, max 1048575 bytes)',
    );
    const [failedRun] = (await lastJobRuns(t.db, 'poll-feeds', 5)).filter((r) =>
      JSON.stringify(r.stats).includes('"failed":1'),
    );
    expect(JSON.stringify(failedRun!.stats)).not.toMatch(/insert into|Failed query|params/i);

    // What /status and a digest header show while the feed is failing.
    await t.db.execute(
      sql`update feed_state set health = 'failing', consecutive_failures = 1, health_detail = ${`1 failed poll in a row: ${lg!.lastError}`} where feed = 'arxiv-rss:cs.LG'`,
    );
    const statusText = replyText(await runCommand(status, commandInput(undefined, {}), deps()));
    const header = digestHeader(
      { channel: { cadence: 'daily' } as never, date: '2026-11-17', now, feeds: await listFeedStates(t.db) },
      labelsFor('en'),
    );
    for (const shown of [statusText, header.line, ...header.warnings]) {
      expect(shown).not.toMatch(/insert into|Failed query|params:|jsonb_to_recordset/i);
    }
    // The public digest says the feed is failing, and /status says why (issue 26: no error text in public messages).
    expect(header.warnings.join('\n')).toContain('arXiv cs.LG is failing');
    expect(header.warnings.join('\n')).not.toContain('string is too long for tsvector');
    expect(statusText).toContain('string is too long for tsvector');

    // The log line of the failure carries the statement's start but never megabytes of parameters.
    const failure = logLines.filter((l) => l.includes('feed failed'));
    expect(failure).toHaveLength(1);
    expect(failure[0]!.length).toBeLessThan(12_000);
  });

  it('caps a response: a gzip bomb, a 50 MB array and a million-item page fail or are cut, and the log stays short', async () => {
    now = new Date('2026-11-18T06:15:00Z');
    logLines.length = 0;
    const bomb = () => repeated('', '\0'.repeat(1_000), 1_000, '').pipe(createGzip()); // 1 GB of zeros, gzipped as it is read
    serve(
      {
        'cs.LG': {
          status: 200,
          headers: { 'content-encoding': 'gzip', 'content-type': 'application/rss+xml' },
          stream: bomb(),
        },
        // 100,000 items with no id: each skipped, counted in one log line.
        'cs.CL': {
          status: 200,
          stream: repeated(
            rssFeed('cs.CL', '2026-11-18', []).replace(/<\/channel>[\s\S]*$/, ''),
            '<item><title>junk</title></item>',
            100,
            '</channel></rss>',
          ),
        },
      },
      {
        '2026-11-17': {
          status: 200,
          headers: { 'content-type': 'application/json' },
          stream: repeated('[', `${JSON.stringify(hfItem('2611.50001'))},`, 300, '{}]'),
        }, // ~60 MB
        '2026-11-18': ok(`[${'{},'.repeat(1_000_000)}{}]`),
      },
    );
    const stats = await pollFeeds(deps(), { sources: ['arxiv-rss', 'hf-daily'] });
    const feeds = stats.feeds as Record<string, FeedStats>;
    expect(feeds['arxiv-rss:cs.LG']).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('larger than 16 MB'),
    });
    expect(feeds['arxiv-rss:cs.CL']).toMatchObject({ status: 'ok', fetched: 100_000, skipped: 100_000, new: 0 });
    // The HF pass reads 2026-11-17 first (a 60 MB array: cut off at HF's 4 MB page cap): its first page fails, nothing stored.
    expect(feeds['hf-daily']).toMatchObject({ status: 'failed', error: expect.stringContaining('larger than 4 MB') });
    expect(await paper('2611.50001')).toBeUndefined();
    expect(logLines.length).toBeLessThan(20);
    expect(logLines.every((l) => l.length < 12_000)).toBe(true);

    // The million-item page alone: read up to the page limit, the rest counted, no stack overflow.
    serve({}, { '2026-11-18': ok(`[${'{},'.repeat(1_000_000)}{}]`) });
    const hfOnly = await pollFeeds(deps(), { sources: ['hf-daily'], date: '2026-11-18' });
    expect((hfOnly.feeds as Record<string, FeedStats>)['hf-daily']).toMatchObject({
      status: 'ok',
      fetched: 1_000_001,
      skipped: 1_000_001,
      new: 0,
    });
    expect(
      await t.db
        .select({ id: papers.id })
        .from(papers)
        .where(inArray(papers.arxivId, ['2611.50001'])),
    ).toEqual([]);
  });
});
