/**
 * The feeds one poll reads, each as "fetch, parse, judge health, say where to resume". No database:
 * the poll job loads each feed's previous state, calls `poll`, then stores candidates and state.
 * A feed throws (HttpError, FeedError) when its whole response is unusable; the job records that
 * and moves on to the next feed with the cursor left where it was.
 */
import { QUERY_TERMS } from '../../core/papers/lexicon.ts';
import type { Config } from '../../core/config.ts';
import { arxivApiUrl, familyQuery, parseArxivApi } from './arxiv-api.ts';
import { arxivRssUrl, parseArxivRss } from './arxiv-rss.ts';
import type { PaperCandidate, SkippedItem, SourceName } from '../../core/papers/candidate.ts';
import { arxivDay, batchKey, rssHealth, type HealthVerdict } from '../../core/feeds/health.ts';
import { hfDailyUrl, parseHfDaily } from './hf-daily.ts';
import { fetchText, type HttpOptions } from './http.ts';
import { skippedCount } from './sanitize.ts';

/** What a feed remembers between polls (a subset of the `feed_state` row). */
export interface PreviousState {
  etag: string | null;
  lastModified: string | null;
  cursor: string | null;
  batchKey: string | null;
  batchDate: string | null;
}

export interface FeedPoll {
  candidates: PaperCandidate[];
  skipped: SkippedItem[];
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
  poll(ctx: PollContext, prev: PreviousState | undefined): Promise<FeedPoll>;
}

const OK: HealthVerdict = { health: 'ok', detail: null };
const API_PAGE = 200;
const MAX_API_PAGES = 10;
const HF_PAGE = 100;
const MAX_HF_PAGES = 10;
/** After downtime, the HF pass and the API catch-up look back at most this far; `backfill` covers more. */
const MAX_CATCH_UP_DAYS = 7;
const DAY_MS = 86_400_000;

/** One arXiv RSS category. Per category rather than combined, so one stale category is visible as such. */
export function arxivRssFeed(config: Config, category: string): Feed {
  return {
    name: `arxiv-rss:${category}`,
    source: 'arxiv-rss',
    async poll(ctx, prev) {
      const day = arxivDay(ctx.now);
      const validators = prev
        ? { etag: prev.etag ?? undefined, lastModified: prev.lastModified ?? undefined }
        : undefined;
      const res = await fetchText(arxivRssUrl(config.sources.arxivRssBase, [category]), validators, ctx.arxivHttp);
      if (res.status === 'not-modified') {
        const sameDay = prev?.batchDate === day.date || !day.announces;
        return {
          candidates: [],
          skipped: [],
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
      const parsed = await parseArxivRss(res.body);
      const ids = parsed.candidates.map((c) => c.externalId);
      const key = batchKey(ids);
      return {
        candidates: parsed.candidates,
        skipped: parsed.skipped,
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
 * catching what the RSS polls missed during downtime or a stale batch.
 */
export function arxivApiFeed(config: Config): Feed {
  return {
    name: 'arxiv-api',
    source: 'arxiv-api',
    async poll(ctx, prev) {
      const { from, to } = ctx.date ? dayWindow(ctx.date) : catchUpWindow(prev?.cursor, ctx.now);
      const query = familyQuery(QUERY_TERMS, { categories: config.sources.arxivCategories, from, to });
      const { candidates, skipped } = await fetchApiPages(config, ctx.arxivHttp, query);
      return {
        candidates,
        skipped,
        notModified: false,
        next: ctx.date ? {} : { cursor: to.toISOString() },
        verdict: OK,
      };
    },
  };
}

export interface ApiPaging {
  pageSize?: number;
  /** arXiv serves at most 30,000 results per query. */
  maxPages?: number;
  onPage?: (done: number, total: number) => void;
}

/** Every page of one arXiv API query (paced by the shared pacer in `http`). */
export async function fetchApiPages(config: Config, http: HttpOptions, query: string, paging: ApiPaging = {}) {
  const { pageSize = API_PAGE, maxPages = MAX_API_PAGES, onPage } = paging;
  const candidates: PaperCandidate[] = [];
  const skipped: SkippedItem[] = [];
  for (let page = 0; page < maxPages; page++) {
    const url = arxivApiUrl(config.sources.arxivApiBase, {
      searchQuery: query,
      start: page * pageSize,
      maxResults: pageSize,
      sortBy: 'submittedDate',
      sortOrder: 'ascending',
    });
    const res = await fetchText(url, undefined, http);
    if (res.status !== 'ok') break;
    const parsed = await parseArxivApi(res.body);
    append(candidates, parsed.candidates);
    append(skipped, parsed.skipped);
    const total = parsed.meta.totalResults ?? candidates.length;
    onPage?.(Math.min(candidates.length + skippedCount(skipped), total), total);
    if (parsed.candidates.length + skippedCount(parsed.skipped) < pageSize || (page + 1) * pageSize >= total) break;
  }
  return { candidates, skipped };
}

/** Hugging Face daily papers, every page of every day since the last pass (the last day again, for fresh upvotes). */
export function hfDailyFeed(config: Config): Feed {
  return {
    name: 'hf-daily',
    source: 'hf-daily',
    async poll(ctx, prev) {
      const today = utcDate(ctx.now);
      const dates = ctx.date ? [ctx.date] : datesSince(prev?.cursor ?? today, today);
      const candidates: PaperCandidate[] = [];
      const skipped: SkippedItem[] = [];
      for (const date of dates) {
        for (let page = 0; page < MAX_HF_PAGES; page++) {
          const res = await fetchText(hfDailyUrl(config.sources.hfApiBase, date, page, HF_PAGE), undefined, ctx.http);
          if (res.status !== 'ok') break;
          const parsed = parseHfDaily(res.body, date);
          append(candidates, parsed.candidates);
          append(skipped, parsed.skipped);
          if (parsed.candidates.length + parsed.skipped.length < HF_PAGE) break;
        }
      }
      const verdict =
        candidates.length === 0 ? { health: 'ok' as const, detail: `nothing listed for ${dates.join(', ')} yet` } : OK;
      return { candidates, skipped, notModified: false, next: ctx.date ? {} : { cursor: today }, verdict };
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

/** `push(...items)` passes every item as an argument: a long page would overflow the stack. */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
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
