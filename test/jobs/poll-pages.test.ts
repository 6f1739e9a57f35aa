/**
 * Issue 26 item 3: a poll stores each page before it fetches the next (so memory holds one page,
 * not a run), a failure on a late page keeps the pages before it and the cursor says so, and one run
 * reads at most the pages and page sizes it asks for, however much a server sends.
 */
import { PassThrough } from 'node:stream';
import { count, inArray } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFeedState } from '../../db/queries/feed-state.ts';
import { feedState, paperSources, papers } from '../../db/schema.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { pollFeeds, type FeedStats } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed, hfPage, rssFeed, type ApiEntry, type HfItem } from '../helpers/feed-builders.ts';
import { fixture, startFeedServer, type FakeResponse, type FeedServer, feedEnv } from '../helpers/feed-server.ts';

const ok = (body: string): FakeResponse => ({ status: 200, body });
const ids = (prefix: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(from + i).padStart(4, '0')}`);

describe('poll, page by page', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let now = new Date('2026-11-23T18:00:00Z');
  const deps = (): JobDeps =>
    buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => now,
      config: loadConfig({
        ...feedEnv(server.base),
      }),
    });
  const stored = async (arxivIds: string[]) =>
    (await t.db.select({ n: count() }).from(papers).where(inArray(papers.arxivId, arxivIds)))[0]!.n;
  const hfRequests = () =>
    server.requests
      .filter((r) => r.path === '/api/daily_papers')
      .map((r) => `${r.query.get('date')}/${r.query.get('p')}`);

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer();
  });

  it('keeps the pages stored before a failing one, moves the cursor past them, and resumes there', async () => {
    await t.db.insert(feedState).values({ feed: 'hf-daily', cursor: '2026-11-20', initializedAt: now, updatedAt: now });
    const day20 = ids('2611.6', 103);
    const day21 = ids('2611.7', 100);
    let broken = true;
    const items = (list: string[]): HfItem[] => list.map((id) => ({ id }));
    server.route((url) => {
      const date = url.searchParams.get('date');
      const page = url.searchParams.get('p');
      if (date === '2026-11-20') return ok(hfPage(items(page === '0' ? day20.slice(0, 100) : day20.slice(100)), date));
      if (date === '2026-11-21' && page === '0') return ok(hfPage(items(day21), date));
      if (date === '2026-11-21' && broken) return ok('{"error":"backend unavailable"}');
      return ok('[]');
    });
    const first = await pollFeeds(deps(), { sources: ['hf-daily'] });
    // Pages 1 and 2 (the 20th) and page 1 of the 21st were stored before page 2 of the 21st failed.
    expect((first.feeds as Record<string, FeedStats>)['hf-daily']).toMatchObject({
      status: 'failed',
      fetched: 203,
      new: 203,
    });
    expect(await stored([...day20, ...day21])).toBe(203);
    expect(await getFeedState(t.db, 'hf-daily')).toMatchObject({
      cursor: '2026-11-21', // everything of the 20th is stored: the next run starts at the 21st
      consecutiveFailures: 1,
      health: 'failing',
    });

    broken = false;
    const sourcesBefore = (await t.db.select({ n: count() }).from(paperSources))[0]!.n;
    const requestsBefore = hfRequests().length;
    const second = await pollFeeds(deps(), { sources: ['hf-daily'] });
    expect(second).toMatchObject({ new: 0, failed: 0 });
    expect(hfRequests().slice(requestsBefore)[0]).toBe('2026-11-21/0');
    // The 21st's first page read again adds no paper and no provenance row.
    expect((await t.db.select({ n: count() }).from(paperSources))[0]!.n).toBe(sourcesBefore);
    expect(await getFeedState(t.db, 'hf-daily')).toMatchObject({ cursor: '2026-11-23', consecutiveFailures: 0 });
  });

  it('stores each arXiv API page before it asks for the next, and its cursor follows the stored submissions', async () => {
    now = new Date('2026-11-24T06:15:00Z');
    const pages: ApiEntry[][] = [
      ids('2611.8', 200).map((id) => ({ id, published: '2026-11-18T10:00:00Z' })),
      ids('2611.8', 200, 200).map((id) => ({ id, published: '2026-11-19T10:00:00Z' })),
    ];
    const seenAtRequest: number[] = [];
    server.route((url) => {
      if (url.pathname !== '/api/query') return undefined;
      const page = Number(url.searchParams.get('start')) / 200;
      const body = page < 2 ? apiFeed(pages[page]!, 450, page * 200) : fixture('arxiv-api-error.xml');
      // Answer only once the database has been looked at: what is stored when page N is asked for.
      const stream = new PassThrough();
      void stored(pages.flat().map((e) => e.id)).then((n) => {
        seenAtRequest.push(n);
        stream.end(body);
      });
      return { status: 200, stream };
    });
    const stats = await pollFeeds(deps(), { sources: ['arxiv-api'] });
    expect(seenAtRequest).toEqual([0, 200, 400]);
    expect((stats.feeds as Record<string, FeedStats>)['arxiv-api']).toMatchObject({ status: 'failed', new: 400 });
    expect(await getFeedState(t.db, 'arxiv-api')).toMatchObject({ cursor: '2026-11-19T00:00:00.000Z' });
  });

  it('reads no more than the page size it asked for and no more pages than its limit, whatever a server sends', async () => {
    now = new Date('2026-11-25T18:00:00Z');
    server.route((url) => {
      if (url.pathname === '/api/daily_papers') {
        const page = Number(url.searchParams.get('p'));
        return ok(
          hfPage(
            ids(`2612.${page}`, 1000).map((id) => ({ id })),
            url.searchParams.get('date')!,
          ),
        );
      }
      const start = Number(url.searchParams.get('start'));
      const entries = ids(`2610.${start / 200}`, 2000).map((id) => ({ id }));
      return ok(apiFeed(entries, 30_000, start));
    });
    const before = hfRequests().length;
    const stats = await pollFeeds(deps(), { sources: ['arxiv-api', 'hf-daily'], date: '2026-11-25' });
    const feeds = stats.feeds as Record<string, FeedStats>;
    // 10 pages of 1,000 HF items where 100 were asked for: 100 a page kept, the rest counted as skipped.
    expect(feeds['hf-daily']).toMatchObject({ status: 'ok', new: 1000, skipped: 9000 });
    expect(hfRequests().length - before).toBe(10);
    // 10 pages of 2,000 API entries where 200 were asked for.
    expect(feeds['arxiv-api']).toMatchObject({ status: 'ok', new: 2000, skipped: 18_000 });
  });

  it('stores the first RSS page while the listing is still arriving, so a long listing is never held whole', async () => {
    now = new Date('2026-11-26T06:15:00Z');
    const listing = ids('2611.9', 500);
    const feed = rssFeed(
      'cs.LG',
      '2026-11-26',
      listing.map((id) => ({ id })),
    );
    const cut = feed.indexOf('<item>', feed.indexOf(listing[250]!));
    let storedMidBody = -1;
    server.route((url) => {
      if (!url.pathname.startsWith('/rss/')) return undefined;
      const stream = new PassThrough();
      stream.write(feed.slice(0, cut)); // 250 items: one page's worth and part of the next
      void (async () => {
        // Wait (at most 10 s) for the first page to be stored; before, the listing was parsed only once whole.
        for (let tries = 0; tries < 200 && (await stored(listing)) === 0; tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        storedMidBody = await stored(listing);
        stream.end(feed.slice(cut));
      })();
      return { status: 200, stream };
    });
    const stats = await pollFeeds(deps(), { sources: ['arxiv-rss'] });
    expect(storedMidBody).toBe(200);
    expect((stats.feeds as Record<string, FeedStats>)['arxiv-rss:cs.LG']).toMatchObject({ status: 'ok', new: 500 });
    expect(await stored(listing)).toBe(500);
  });
});
