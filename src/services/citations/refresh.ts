/**
 * The daily citation refresh: every GRPO-family paper with an arXiv id asked of Semantic Scholar in
 * batches, within its limits, the counts stored with when they were read.
 *
 * Limits, in the order they apply:
 * - one request at a time, `S2_REQUEST_INTERVAL_MS` apart (1.1 s with a key, whose limit is 1 request
 *   per second; 3.5 s without, in the shared pool), counted from the end of one to the start of the next;
 * - a 429 waits what Retry-After says, else an exponential backoff capped at a minute, and the same
 *   batch is asked again; after `S2_MAX_RATE_LIMITED` 429s, or a Retry-After over two minutes, the
 *   refresh stops for the day (the least recently refreshed papers go first tomorrow);
 * - a 5xx, a timeout or a network error is tried again up to three more times with backoff; a batch
 *   still failing stops the refresh too (Semantic Scholar is down: no point in the rest).
 * Stopping is never an exception: the stats say why, the job's verdict says it to /status.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { citationTargets, saveCitationCounts } from '../../../db/queries/citation-counts.ts';
import type { AppDeps } from '../../core/deps.ts';
import { errorSummary } from '../../core/errors.ts';
import { HttpError, Pacer, type HttpOptions } from '../sources/http.ts';
import { fetchCitationBatch, S2FormatError, type S2Counts } from '../sources/semantic-scholar.ts';

/** A Retry-After longer than this is not waited out: the refresh stops and tomorrow's tries again. */
export const MAX_RETRY_AFTER_MS = 120_000;
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_CAP_MS = 60_000;
/** Attempts of one batch that fails with a 5xx, a timeout or a network error (429s are counted apart). */
const ATTEMPTS_PER_BATCH = 4;

export type RefreshDeps = Pick<AppDeps, 'db' | 'config' | 'log' | 'now'>;

export interface RefreshOptions {
  signal?: AbortSignal;
  /** The waits between attempts (Retry-After, backoff); tests record them. The pacing between requests is separate. */
  sleep?: (ms: number) => Promise<void>;
}

/** What one refresh did, as the job records it. */
export interface CitationStats {
  [key: string]: number | string | boolean | null;
  /** Papers asked about (GRPO-family with an arXiv id). */
  papers: number;
  batches: number;
  requests: number;
  /** Papers Semantic Scholar knew, whose counts are stored. */
  found: number;
  /** Papers it did not know (null in the batch, or a 404 to the whole batch). */
  unknown: number;
  /** Batches answered 404 as a whole. */
  notFoundBatches: number;
  rateLimited: number;
  /** Whether an API key was sent (its own limit) or the shared pool was used. */
  keyed: boolean;
  /** Why the refresh stopped before the last batch; null when it went through. */
  stopped: string | null;
}

type BatchOutcome = { kind: 'ok'; counts: (S2Counts | null)[]; allUnknown: boolean } | { kind: 'stop'; reason: string };

export async function refreshCitations(deps: RefreshDeps, opts: RefreshOptions = {}): Promise<CitationStats> {
  const cfg = deps.config.semanticScholar;
  const targets = await citationTargets(deps.db);
  const stats: CitationStats = {
    papers: targets.length,
    batches: 0,
    requests: 0,
    found: 0,
    unknown: 0,
    notFoundBatches: 0,
    rateLimited: 0,
    keyed: Boolean(cfg.apiKey),
    stopped: null,
  };
  const http: HttpOptions = {
    userAgent: deps.config.sources.userAgent,
    timeoutMs: deps.config.sources.timeoutMs,
    now: deps.now,
    pacer: new Pacer(cfg.intervalMs),
    signal: opts.signal,
  };
  const sleep = opts.sleep ?? ((ms: number) => delay(ms, undefined, { signal: opts.signal }));
  for (let i = 0; i < targets.length; i += cfg.batchSize) {
    const batch = targets.slice(i, i + cfg.batchSize);
    stats.batches++;
    const outcome = await askWithRetries(
      batch.map((t) => t.arxivId),
      { ...cfg, http, sleep, signal: opts.signal },
      stats,
    );
    if (outcome.kind === 'stop') {
      stats.stopped = outcome.reason;
      deps.log.warn({ reason: outcome.reason, batch: stats.batches }, 'citation refresh stopped for today');
      break;
    }
    const rows = batch.flatMap((t, k) => {
      const c = outcome.counts[k];
      return c ? [{ paperId: t.paperId, ...c }] : [];
    });
    await saveCitationCounts(deps.db, rows, deps.now());
    stats.found += rows.length;
    stats.unknown += batch.length - rows.length;
    if (outcome.allUnknown) stats.notFoundBatches++;
  }
  return stats;
}

interface AskContext {
  apiBase: string;
  apiKey?: string;
  maxRateLimited: number;
  http: HttpOptions;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** One batch, asked until it is answered or the refresh must stop (429s past the limit, a failing service). */
async function askWithRetries(ids: string[], ctx: AskContext, stats: CitationStats): Promise<BatchOutcome> {
  for (let failures = 0; ;) {
    if (ctx.signal?.aborted) return { kind: 'stop', reason: 'cancelled (shutdown)' };
    stats.requests++;
    let wait: number;
    try {
      return { kind: 'ok', ...(await fetchCitationBatch(ids, ctx)) };
    } catch (err) {
      if (ctx.signal?.aborted) return { kind: 'stop', reason: 'cancelled (shutdown)' };
      if (err instanceof HttpError && err.httpStatus === 429) {
        stats.rateLimited++;
        if (stats.rateLimited >= ctx.maxRateLimited) return { kind: 'stop', reason: rateLimitedReason(stats, ctx) };
        wait = err.retryAfterMs ?? backoff(stats.rateLimited);
        if (wait > MAX_RETRY_AFTER_MS)
          return {
            kind: 'stop',
            reason: `Semantic Scholar asks to wait ${Math.ceil(wait / 1000)} s (Retry-After), over the ${MAX_RETRY_AFTER_MS / 1000} s a refresh waits; gave up until the next refresh`,
          };
      } else {
        failures++;
        const why = errorSummary(err, 200);
        if (!transient(err) || failures >= ATTEMPTS_PER_BATCH)
          return {
            kind: 'stop',
            reason: `Semantic Scholar failed ${failures === 1 ? 'once' : `${failures} times in a row`} (${why}); gave up until the next refresh`,
          };
        wait = backoff(failures);
      }
    }
    try {
      await ctx.sleep(wait);
    } catch {
      return { kind: 'stop', reason: 'cancelled (shutdown)' };
    }
  }
}

function rateLimitedReason(stats: CitationStats, ctx: AskContext): string {
  const hint = ctx.apiKey ? '' : ' (without S2_API_KEY the shared pool is often full: a free key gives 1 request/s)';
  return `Semantic Scholar answered 429 (rate limited) ${stats.rateLimited} times; gave up until the next refresh${hint}`;
}

/** A 5xx, 408, a timeout or a network error may pass; any other refusal or a malformed answer would come back the same. */
function transient(err: unknown): boolean {
  if (err instanceof S2FormatError || !(err instanceof HttpError)) return false;
  const s = err.httpStatus;
  return s === undefined || s === 408 || s >= 500;
}

/** Exponential with equal jitter, capped: 2 s, 4 s, 8 s ... at most a minute. */
function backoff(n: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (n - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
