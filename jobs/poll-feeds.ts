import { reclassifyIfRulesChanged } from '../src/services/ingest/reclassify.ts';
import { getFeedState, recordFeedFailure, recordFeedProgress, recordFeedSuccess } from '../db/queries/feed-state.ts';
import { ingestCandidates } from '../src/services/ingest/ingest.ts';
import type { SkippedItem, SourceName } from '../src/core/papers/candidate.ts';
import { feedsFor, type Feed, type FeedPage } from '../src/services/sources/feeds.ts';
import { failureHealth } from '../src/core/feeds/health.ts';
import { Pacer, type HttpOptions } from '../src/services/sources/http.ts';
import { skippedCount } from '../src/services/sources/sanitize.ts';
import { assessAttempts, type Assessment, type Job, type JobDeps, type JobStats } from './index.ts';
import { fetchTexts } from './fetch-text.ts';
import { resolveTitles } from './resolve-titles.ts';
import { diffNewVersions } from './diff-versions.ts';
import { errorSummary, isDatabaseUnavailable } from '../src/core/errors.ts';

export interface PollOptions {
  sources?: readonly SourceName[];
  /** Poll one past day (YYYY-MM-DD): the API and HF for that date; RSS only ever serves today. */
  date?: string;
  /** Cancels requests in flight (shutdown). */
  signal?: AbortSignal;
  /** HTTP options to share with other work in the same run (one arXiv pacer for everything). */
  http?: ReturnType<typeof httpOptions>;
}

export interface FeedStats extends JobStats {
  status: 'ok' | 'not-modified' | 'failed';
  fetched: number;
  new: number;
  updated: number;
  family: number;
  skipped: number;
  health: string;
  /** A failed feed's short cause; null when it did not fail. */
  error: string | null;
}

/** The HTTP options every feed uses; arXiv's share one pacer (its terms: 1 request / 3 s, one at a time). */
export function httpOptions(
  deps: Pick<JobDeps, 'config' | 'now'>,
  signal?: AbortSignal,
): { http: HttpOptions; arxivHttp: HttpOptions } {
  const http: HttpOptions = {
    userAgent: deps.config.sources.userAgent,
    now: deps.now,
    timeoutMs: deps.config.sources.timeoutMs,
    signal,
  };
  return { http, arxivHttp: { ...http, pacer: new Pacer(deps.config.sources.arxivIntervalMs) } };
}

/**
 * Polls every feed once, each on its own and page by page: a feed that fails is recorded (error,
 * failure streak, health) and the others still run; the pages it stored before failing are kept, its
 * cursor stays where they left it and its validators stay put, so the next run catches up from there.
 * Papers from a feed's first successful poll are stored without being announced.
 */
export async function pollFeeds(deps: JobDeps, opts: PollOptions = {}): Promise<JobStats> {
  const now = deps.now();
  const ctx = { now, date: opts.date, ...(opts.http ?? httpOptions(deps, opts.signal)) };
  const sources = opts.date
    ? (opts.sources ?? ['arxiv-api', 'hf-daily']).filter((s) => s !== 'arxiv-rss')
    : opts.sources;
  const feeds: Record<string, FeedStats> = {};
  for (const feed of feedsFor(deps.config, sources)) {
    if (opts.signal?.aborted) break;
    feeds[feed.name] = await pollOne(deps, feed, ctx, now);
  }
  const all = Object.values(feeds);
  const sum = (k: 'fetched' | 'new' | 'updated' | 'family' | 'skipped') => all.reduce((n, f) => n + f[k], 0);
  return {
    fetched: sum('fetched'),
    new: sum('new'),
    updated: sum('updated'),
    family: sum('family'),
    skipped: sum('skipped'),
    failed: all.filter((f) => f.status === 'failed').length,
    feeds,
  };
}

/** A poll failed when every feed failed, and did part of its work when some did. */
export function assessPoll(stats: JobStats): Assessment | undefined {
  const feeds = Object.entries((stats.feeds ?? {}) as Record<string, FeedStats>);
  const failures = feeds.filter(([, f]) => f.status === 'failed').map(([name, f]) => `${name}: ${f.error ?? 'failed'}`);
  return assessAttempts(feeds.length, failures, ['feed', 'feeds']);
}

/** What a feed's stored pages add up to, so far. */
interface Tally {
  pages: number;
  items: number;
  skipped: number;
  new: number;
  updated: number;
  family: number;
  announced: number;
  /** The first few skipped items, for the log. */
  examples: SkippedItem[];
}

/**
 * Polls one feed page by page: each page is stored (papers, provenance, the cursor it allows) in its
 * own transaction before the next is fetched, so memory holds one page, never a run, and a failure on
 * page 3 keeps pages 1 and 2 and resumes after them. The feed's success (health, counts, validators,
 * initialisation) is recorded only once every page is stored.
 */
async function pollOne(deps: JobDeps, feed: Feed, ctx: Parameters<Feed['poll']>[0], now: Date): Promise<FeedStats> {
  const log = deps.log.child({ feed: feed.name });
  const state = await getFeedState(deps.db, feed.name);
  // Until a feed has succeeded once, what it returns is the backlog, not news: every page of the run alike.
  const newsAt = state?.initializedAt ? now : null;
  const tally: Tally = { pages: 0, items: 0, skipped: 0, new: 0, updated: 0, family: 0, announced: 0, examples: [] };
  const pages = feed.poll(ctx, state);
  try {
    let step = await pages.next();
    for (; !step.done; step = await pages.next()) await storePage(deps, feed.name, step.value, { newsAt, now }, tally);
    const end = step.value;
    await recordFeedSuccess(
      deps.db,
      feed.name,
      { ...end.next, items: tally.items, new: tally.new, family: tally.family, verdict: end.verdict },
      now,
    );
    if (tally.skipped > 0) log.warn({ skipped: tally.skipped, examples: tally.examples }, 'feed items skipped');
    if (end.verdict.health !== 'ok') log.warn({ health: end.verdict.health }, end.verdict.detail ?? 'feed unhealthy');
    const stats = feedStats(end.notModified ? 'not-modified' : 'ok', tally, end.verdict.health, null);
    log.info(
      { ...stats, pages: tally.pages, announced: tally.announced, firstPoll: !state?.initializedAt },
      'feed polled',
    );
    return stats;
  } catch (err) {
    // A page that failed to store leaves the feed mid-body: closing it frees its connection (and arXiv's pacer).
    await pages.return(undefined as never).catch(() => undefined);
    // The database itself is gone: the whole run fails (and is retried), not this feed.
    if (isDatabaseUnavailable(err)) throw err;
    // Users see this short cause (in /status and the digest header); the log gets the detail, bounded.
    const message = errorSummary(err);
    const streak = await recordFeedFailure(deps.db, feed.name, message, (n) => failureHealth(n, message), now);
    log.error(
      { err, streak, pagesStored: tally.pages },
      'feed failed; the pages before the failure are stored, and the next run resumes after them',
    );
    return feedStats('failed', tally, 'failing', message);
  }
}

/** One page in one transaction: its papers and provenance, then the cursor it lets a later run resume from. */
async function storePage(
  deps: JobDeps,
  feedName: string,
  page: FeedPage,
  opts: { newsAt: Date | null; now: Date },
  tally: Tally,
): Promise<void> {
  const stats = await deps.db.transaction(async (tx) => {
    const stats = await ingestCandidates({ db: tx, now: deps.now }, page.candidates, { newsAt: opts.newsAt });
    if (page.cursor !== undefined) await recordFeedProgress(tx, feedName, page.cursor, opts.now);
    return stats;
  });
  tally.pages++;
  tally.items += page.candidates.length;
  tally.skipped += skippedCount(page.skipped);
  tally.examples.push(...page.skipped.slice(0, 5 - tally.examples.length));
  tally.new += stats.new;
  tally.updated += stats.updated;
  tally.family += stats.family;
  tally.announced += stats.announced;
}

function feedStats(status: FeedStats['status'], t: Tally, health: string, error: string | null): FeedStats {
  return {
    status,
    fetched: t.items + t.skipped,
    new: t.new,
    updated: t.updated,
    family: t.family,
    skipped: t.skipped,
    health,
    error,
  };
}

/** Title-only seed papers resolved per daily run: a few paced requests a day clear the backlog in weeks. */
const TITLE_LOOKUPS_PER_RUN = 5;

/**
 * The daily poll: every source, shortly after arXiv rebuilds its feeds, then a few title-only papers
 * resolved and a few GRPO-family papers' full texts read (new versions first, then newest first), all
 * through one arXiv pacer; then new versions whose text is settled are compared with the one before.
 */
export const pollFeedsJob: Job = {
  name: 'poll-feeds',
  lock: 'poll',
  schedule: (config) => config.pollCron,
  assess: assessPoll,
  async run(deps) {
    const reclassified = await reclassifyIfRulesChanged(deps);
    if (reclassified !== null)
      deps.log.info({ changed: reclassified }, 'classifier rules changed: stored papers re-classified');
    const http = httpOptions(deps);
    const stats = await pollFeeds(deps, { http });
    const titles = await resolveTitles(deps, { limit: TITLE_LOOKUPS_PER_RUN, arxivHttp: http.arxivHttp });
    const texts = await fetchTexts(deps, { limit: deps.config.text.perPoll, arxivHttp: http.arxivHttp });
    const versions = await diffNewVersions(deps, { arxivHttp: http.arxivHttp });
    return { ...stats, titles, texts, versions, reclassified };
  },
};

/** The afternoon pass over Hugging Face: its list fills and collects upvotes during the day. */
export const pollHfJob: Job = {
  name: 'poll-hf',
  lock: 'poll',
  schedule: (config) => config.hfPollCron,
  assess: assessPoll,
  run: (deps) => pollFeeds(deps, { sources: ['hf-daily'] }),
};
