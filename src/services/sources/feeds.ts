/**
 * The feeds one poll reads, each as "fetch a page, parse it, hand it over, say where to resume". No
 * database: the poll job loads each feed's previous state, asks for one page at a time, stores it
 * (with the cursor it allows) before asking for the next, and records the poll's end. So a run holds
 * one page in memory, never the whole run, and a failure on page 3 keeps pages 1 and 2.
 * A feed throws (HttpError, FeedError) when a response is unusable; the job records that and moves on
 * to the next feed with the cursor where the last stored page left it.
 */
import { QUERY_TERMS } from '../../core/papers/lexicon.ts';
import type { Config } from '../../core/config.ts';
import { arxivApiUrl, familyQuery, parseArxivApi } from './arxiv-api.ts';
import { arxivRssPages, arxivRssUrl } from './arxiv-rss.ts';
import type { PaperCandidate, SkippedItem, SourceName } from '../../core/papers/candidate.ts';
import { arxivDay, batchKey, rssHealth, type HealthVerdict } from '../../core/feeds/health.ts';
import { hfDailyUrl, parseHfDaily } from './hf-daily.ts';
import { fetchStream, fetchText, type HttpOptions } from './http.ts';
import { skippedCount } from './sanitize.ts';

/** What a feed remembers between polls (a subset of the `feed_state` row). */
export interface PreviousState {
  etag: string | null;
  lastModified: string | null;
  cursor: string | null;
  batchKey: string | null;
  batchDate: string | null;
}

/** One response's worth of items, stored before the next page is fetched. */
export interface FeedPage {
  candidates: PaperCandidate[];
  skipped: SkippedItem[];
  /** Where a later run may resume once this page is stored (stored with it); undefined = keep. */
  cursor?: string;
}

/** How a poll ended, once every page is stored. */
export interface FeedEnd {
  /** The server said nothing changed since the validators we sent. */
  notModified: boolean;
  /** Fields to store when the poll succeeds (undefined = keep). */
  next: Partial<PreviousState>;
  verdict: HealthVerdict;
}

export interface PollContext {
  now: Date;
  /** Hugging Face requests. */
  http: HttpOptions;
  /** arXiv requests: the same options plus the shared 1-per-3-s pacer. */
  arxivHttp: HttpOptions;
  /** A manual poll of one day (YYYY-MM-DD, UTC). */
  date?: string;
}

export interface Feed {
  /** The `feed_state` key: `arxiv-rss:cs.LG`, `arxiv-api`, `hf-daily`. */
  name: string;
  source: SourceName;
  /** Yields one page at a time (the next is fetched only when asked for); returns how the poll ended. */
  poll(ctx: PollContext, prev: PreviousState | undefined): AsyncGenerator<FeedPage, FeedEnd, void>;
}

const OK: HealthVerdict = { health: 'ok', detail: null };
/**
 * Page sizes and counts bound what one run reads per feed: a page never yields more items than it asked
 * for (a server that sends more has the rest skipped), so the API catch-up stores at most 10 x 200 =
 * 2,000 items a run, Hugging Face at most 7 days x 10 pages x 100 = 7,000, backfill 60 x 500 = 30,000.
 */
const API_PAGE = 200;
const MAX_API_PAGES = 10;
const HF_PAGE = 100;
const MAX_HF_PAGES = 10;
/**
 * The largest page body read: ten times a real full page (100 HF items are ~300 KB, 500 API entries
 * ~1 MB), so a runaway page fails its feed with a clear cause instead of filling memory.
 */
const API_MAX_BYTES = 8 * 2 ** 20;
const HF_MAX_BYTES = 4 * 2 ** 20;
/** After downtime, the HF pass and the API catch-up look back at most this far; `backfill` covers more. */
const MAX_CATCH_UP_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * One arXiv RSS category, read as it arrives: every RSS_BATCH items are a page, stored before more of
 * the body is read, so a 5,000-item listing never sits in memory whole. Per category rather than
 * combined, so one stale category is visible as such.
 */
export function arxivRssFeed(config: Config, category: string): Feed {
  return {
    name: `arxiv-rss:${category}`,
    source: 'arxiv-rss',
    async *poll(ctx, prev) {
      const day = arxivDay(ctx.now);
      const validators = prev
        ? { etag: prev.etag ?? undefined, lastModified: prev.lastModified ?? undefined }
        : undefined;
      const res = await fetchStream(arxivRssUrl(config.sources.arxivRssBase, [category]), validators, ctx.arxivHttp);
      if (res.status === 'not-modified') {
        const sameDay = prev?.batchDate === day.date || !day.announces;
        return {
          notModified: true,
          next: {},
          verdict: sameDay
            ? OK
            : {
                health: 'stale',
                detail: `unchanged since ${prev?.batchDate ?? 'the last poll'}: arXiv served an old batch`,
              },
        };
      }
      const ids: string[] = [];
      try {
        for await (const page of arxivRssPages(res.body)) {
          ids.push(...page.candidates.map((c) => c.externalId));
          yield page;
        }
      } finally {
        await res.body.cancel();
      }
      const key = batchKey(ids);
      return {
        notModified: false,
        // The batch date is the day a batch was first seen, so a repeat on a later day reads as stale.
        next: {
          etag: res.validators.etag ?? null,
          lastModified: res.validators.lastModified ?? null,
          batchKey: key,
          batchDate: key === prev?.batchKey ? prev.batchDate : day.date,
        },
        verdict: rssHealth({ ids, now: ctx.now, previous: prev }),
      };
    },
  };
}

/**
 * The arXiv API family query over the submissions since the last run (reaching back over the announcement lag),
 * catching what the RSS polls missed during downtime or a stale batch. Pages come oldest submission
 * first, so once a page is stored every submission before its last day has been seen: the cursor moves there.
 */
export function arxivApiFeed(config: Config): Feed {
  return {
    name: 'arxiv-api',
    source: 'arxiv-api',
    async *poll(ctx, prev) {
      const { from, to } = ctx.date ? dayWindow(ctx.date) : catchUpWindow(prev?.cursor, ctx.now);
      const query = familyQuery(QUERY_TERMS, { categories: config.sources.arxivCategories, from, to });
      let cursor = prev?.cursor ?? undefined;
      for await (const page of apiPages(config, ctx.arxivHttp, query)) {
        if (!ctx.date) cursor = laterCursor(cursor, page.candidates, to);
        yield { ...page, cursor: ctx.date ? undefined : cursor };
      }
      return { notModified: false, next: ctx.date ? {} : { cursor: to.toISOString() }, verdict: OK };
    },
  };
}

/** The start of the last submission day on a page, when later than `cursor` (never past `to`). */
function laterCursor(cursor: string | undefined, page: readonly PaperCandidate[], to: Date): string | undefined {
  const last = page.reduce<string | undefined>(
    (max, c) => (c.publishedOn && (!max || c.publishedOn > max) ? c.publishedOn : max),
    undefined,
  );
  if (!last) return cursor;
  const at = Math.min(Date.parse(`${last}T00:00:00Z`), to.getTime());
  return cursor && Date.parse(cursor) >= at ? cursor : new Date(at).toISOString();
}

export interface ApiPaging {
  pageSize?: number;
  /** arXiv serves at most 30,000 results per query. */
  maxPages?: number;
  onPage?: (done: number, total: number) => void;
}

/** The pages of one arXiv API query, fetched one at a time as they are asked for (paced by the shared pacer in `http`). */
export async function* apiPages(
  config: Config,
  http: HttpOptions,
  query: string,
  paging: ApiPaging = {},
): AsyncGenerator<FeedPage, void, void> {
  const { pageSize = API_PAGE, maxPages = MAX_API_PAGES, onPage } = paging;
  let seen = 0;
  for (let page = 0; page < maxPages; page++) {
    const url = arxivApiUrl(config.sources.arxivApiBase, {
      searchQuery: query,
      start: page * pageSize,
      maxResults: pageSize,
      sortBy: 'submittedDate',
      sortOrder: 'ascending',
    });
    const parsed = await fetchApiPage(url, http, pageSize);
    if (!parsed) break;
    const { candidates, skipped, meta } = parsed;
    const count = candidates.length + skippedCount(skipped);
    seen += count;
    const total = meta.totalResults ?? seen;
    yield { candidates, skipped };
    onPage?.(Math.min(seen, total), total);
    if (count < pageSize || (page + 1) * pageSize >= total) break;
  }
}

// The page fetchers below (HF, API) return only what was parsed, so the body and the whole parse tree
// are garbage before the page is handed over and stored: a run keeps one page's candidates alive.

async function fetchApiPage(url: string, http: HttpOptions, pageSize: number) {
  const res = await fetchText(url, undefined, { ...http, maxBytes: API_MAX_BYTES });
  return res.status === 'ok' ? parseArxivApi(res.body, pageSize) : undefined;
}

async function fetchHfPage(url: string, date: string, http: HttpOptions) {
  const res = await fetchText(url, undefined, { ...http, maxBytes: HF_MAX_BYTES });
  return res.status === 'ok' ? parseHfDaily(res.body, date, HF_PAGE) : undefined;
}

/** Hugging Face daily papers, every page of every day since the last pass (the last day again, for fresh upvotes). */
export function hfDailyFeed(config: Config): Feed {
  return {
    name: 'hf-daily',
    source: 'hf-daily',
    async *poll(ctx, prev) {
      const today = utcDate(ctx.now);
      const dates = ctx.date ? [ctx.date] : datesSince(prev?.cursor ?? today, today);
      let listed = 0;
      for (const date of dates) {
        for (let page = 0; page < MAX_HF_PAGES; page++) {
          const parsed = await fetchHfPage(hfDailyUrl(config.sources.hfApiBase, date, page, HF_PAGE), date, ctx.http);
          if (!parsed) break;
          const { candidates, skipped, meta } = parsed;
          listed += candidates.length;
          // Every day before `date` is stored whole: a later run resumes at `date` (it reads the cursor's day again).
          yield { candidates, skipped, cursor: ctx.date ? undefined : date };
          if (meta.count < HF_PAGE) break;
        }
      }
      const verdict =
        listed === 0 ? { health: 'ok' as const, detail: `nothing listed for ${dates.join(', ')} yet` } : OK;
      return { notModified: false, next: ctx.date ? {} : { cursor: today }, verdict };
    },
  };
}

/** The feeds a poll reads, in order: RSS first (the daily batch), then the API catch-up, then HF. */
export function feedsFor(
  config: Config,
  sources: readonly SourceName[] = ['arxiv-rss', 'arxiv-api', 'hf-daily'],
): Feed[] {
  return [
    ...(sources.includes('arxiv-rss') ? config.sources.arxivCategories.map((c) => arxivRssFeed(config, c)) : []),
    ...(sources.includes('arxiv-api') ? [arxivApiFeed(config)] : []),
    ...(sources.includes('hf-daily') ? [hfDailyFeed(config)] : []),
  ];
}

export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The days from `from` to `to` inclusive (YYYY-MM-DD, UTC), at most the last MAX_CATCH_UP_DAYS. */
export function datesSince(from: string, to: string): string[] {
  const end = Date.parse(`${to}T00:00:00Z`);
  const start = Math.max(Date.parse(`${from}T00:00:00Z`), end - (MAX_CATCH_UP_DAYS - 1) * DAY_MS);
  const out: string[] = [];
  for (let t = start; t <= end; t += DAY_MS) out.push(utcDate(new Date(t)));
  return out;
}

function dayWindow(date: string): { from: Date; to: Date } {
  const from = new Date(`${date}T00:00:00Z`);
  return { from, to: new Date(from.getTime() + DAY_MS - 60_000) };
}

/**
 * The API lists a paper only once it is announced, up to four days after submission (weekends,
 * holidays), and filters on submission time: the window reaches back that far behind the cursor.
 */
const ANNOUNCE_LAG_MS = 5 * DAY_MS;

function catchUpWindow(cursor: string | null | undefined, now: Date): { from: Date; to: Date } {
  const last = cursor ? Date.parse(cursor) : Number.NaN;
  const since = Number.isNaN(last) ? now.getTime() : last;
  const from = Math.max(since - ANNOUNCE_LAG_MS, now.getTime() - (MAX_CATCH_UP_DAYS + 5) * DAY_MS);
  return { from: new Date(from), to: now };
}
