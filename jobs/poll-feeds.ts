import { reclassifyIfRulesChanged } from '../src/services/ingest/reclassify.ts';
import { getFeedState, recordFeedFailure, recordFeedSuccess } from '../db/queries/feed-state.ts';
import { ingestCandidates } from '../src/services/ingest/ingest.ts';
import type { SourceName } from '../src/core/papers/candidate.ts';
import { feedsFor, type Feed } from '../src/services/sources/feeds.ts';
import { failureHealth } from '../src/core/feeds/health.ts';
import { Pacer, type HttpOptions } from '../src/services/sources/http.ts';
import { skippedCount, skippedSummary } from '../src/services/sources/sanitize.ts';
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
 * Polls every feed once, each on its own: a feed that fails is recorded (error, failure streak,
 * health) and the others still run; its cursor and validators stay put so the next run catches up.
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

async function pollOne(deps: JobDeps, feed: Feed, ctx: Parameters<Feed['poll']>[0], now: Date): Promise<FeedStats> {
  const log = deps.log.child({ feed: feed.name });
  const state = await getFeedState(deps.db, feed.name);
  try {
    const result = await feed.poll(ctx, state);
    if (result.skipped.length > 0) log.warn(skippedSummary(result.skipped), 'feed items skipped');
    // All or nothing: the papers, their provenance and the feed's new cursor commit together, so a
    // feed that fails half-way stores (and announces) nothing and the next run starts from the same place.
    const ingest = await deps.db.transaction(async (tx) => {
      // Until a feed has succeeded once, what it returns is the backlog, not news.
      const stats = await ingestCandidates({ db: tx, now: deps.now }, result.candidates, {
        newsAt: state?.initializedAt ? now : null,
      });
      await recordFeedSuccess(
        tx,
        feed.name,
        {
          ...result.next,
          items: result.candidates.length,
          new: stats.new,
          family: stats.family,
          verdict: result.verdict,
        },
        now,
      );
      return stats;
    });
    if (result.verdict.health !== 'ok')
      log.warn({ health: result.verdict.health }, result.verdict.detail ?? 'feed unhealthy');
    const stats: FeedStats = {
      status: result.notModified ? 'not-modified' : 'ok',
      fetched: result.candidates.length + skippedCount(result.skipped),
      new: ingest.new,
      updated: ingest.updated,
      family: ingest.family,
      skipped: skippedCount(result.skipped),
      health: result.verdict.health,
      error: null,
    };
    log.info({ ...stats, announced: ingest.announced, firstPoll: !state?.initializedAt }, 'feed polled');
    return stats;
  } catch (err) {
    // The database itself is gone: the whole run fails (and is retried), not this feed.
    if (isDatabaseUnavailable(err)) throw err;
    // Users see this short cause (in /status and the digest header); the log gets the detail, bounded.
    const message = errorSummary(err);
    const streak = await recordFeedFailure(deps.db, feed.name, message, (n) => failureHealth(n, message), now);
    log.error({ err, streak }, 'feed failed; nothing of it was stored, and the next run retries from the same place');
    return {
      status: 'failed',
      fetched: 0,
      new: 0,
      updated: 0,
      family: 0,
      skipped: 0,
      health: 'failing',
      error: message,
    };
  }
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
