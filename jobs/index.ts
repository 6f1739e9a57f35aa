import { setTimeout as delay } from 'node:timers/promises';
import cron from 'node-cron';
import { closeInterruptedRuns, finishJobRun, startJobRun } from '../db/queries/job-runs.ts';
import { withTryLock } from '../db/locks.ts';
import type { Config } from '../src/core/config.ts';
import type { AppDeps } from '../src/core/deps.ts';
import { errorSummary, isDatabaseUnavailable } from '../src/core/errors.ts';

/** What a job may use: a view of the app's dependencies (platform ports are given to the jobs that need them by `createJobs`). */
export type JobDeps = Pick<AppDeps, 'db' | 'sql' | 'config' | 'log' | 'now' | 'llm'>;

/** Counts a job reports (fetched, new, failed ...). Expected per-item problems are counted, not thrown. */
export interface JobStats {
  [key: string]: number | string | boolean | null | JobStats;
}

export interface Job {
  name: string;
  /** Cron expression in UTC, or a function of the config (e.g. POLL_CRON). */
  schedule: string | ((config: Config) => string);
  /** Jobs sharing a lock never run at once (e.g. the full poll and the HF-only pass); defaults to the name. */
  lock?: string;
  /** Run right after a successful run (e.g. summarise what a poll found), under its own lock. */
  then?: Job;
  run(deps: JobDeps): Promise<JobStats>;
  /**
   * Whether a run that returned did its work: `failed` when nothing of it got through (every feed,
   * every fetch failed), `partial` when some of it failed. Undefined: it did.
   */
  assess?(stats: JobStats): Assessment | undefined;
}

/** A finished run that did not do all its work, and the short cause a user reads. */
export interface Assessment {
  status: 'partial' | 'failed';
  error: string;
}

/** A run that stopped for a reason an operator must fix (its message says what); logged without a stack, it is not a bug. */
export class JobStopped extends Error {
  override name = 'JobStopped';
}

/** `failed.error` is a short cause, fit for users (no SQL, no secrets); `databaseUnavailable` says the database was unreachable (worth retrying soon). */
export type JobOutcome =
  | { status: 'ok'; stats: JobStats; partial?: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; error: string; databaseUnavailable?: boolean; stats?: JobStats };

/** A stable 32-bit key per job name for pg advisory locks. */
function lockKey(name: string): number {
  let h = 0;
  for (const ch of `grpo-digest:${name}`) h = (Math.imul(h, 31) + ch.codePointAt(0)!) | 0;
  return h;
}

/**
 * Runs a job once, the same way from the scheduler, the CLI and tests: under a Postgres advisory
 * lock (so replicas never run the same job at once; a second caller is skipped, not queued),
 * recorded in `job_runs`, with its duration and counts logged. Never throws: a failure is logged
 * and returned.
 */
export async function runJob(job: Job, deps: JobDeps): Promise<JobOutcome> {
  const log = deps.log.child({ job: job.name });
  const started = performance.now();
  const lock = job.lock ?? job.name;
  const failed = (err: unknown): JobOutcome => {
    const error = errorSummary(err, 500);
    log.error(
      { ...(err instanceof JobStopped ? { error } : { err }), ms: Math.round(performance.now() - started) },
      isDatabaseUnavailable(err) ? 'job failed: the database is unavailable' : 'job failed',
    );
    return { status: 'failed', error, ...(isDatabaseUnavailable(err) && { databaseUnavailable: true }) };
  };
  try {
    const held = await withTryLock(deps.sql, lockKey(lock), async (): Promise<JobOutcome> => {
      // Holding the lock, no other run under it is alive: one still `running` was killed.
      const interrupted = await closeInterruptedRuns(deps.db, job.name, lock, deps.now());
      if (interrupted > 0)
        log.warn({ interrupted }, 'an earlier run under this lock was interrupted (its process died)');
      const runId = await startJobRun(deps.db, job.name, lock, deps.now());
      try {
        const stats = await job.run({ ...deps, log });
        const verdict = job.assess?.(stats);
        await finishJobRun(
          deps.db,
          runId,
          { status: verdict?.status ?? 'ok', stats, error: verdict?.error },
          deps.now(),
        );
        const ms = Math.round(performance.now() - started);
        if (verdict?.status === 'failed') {
          log.warn({ error: verdict.error, ms }, 'job finished without doing its work');
          return { status: 'failed', error: verdict.error, stats };
        }
        log.info({ ...stats, ms }, verdict ? `job finished in part: ${verdict.error}` : 'job finished');
        return verdict ? { status: 'ok', stats, partial: verdict.error } : { status: 'ok', stats };
      } catch (err) {
        await finishJobRun(deps.db, runId, { status: 'failed', error: errorSummary(err, 500) }, deps.now()).catch(
          () => {},
        );
        return failed(err);
      }
    });
    if (held.locked) return held.value;
  } catch (err) {
    // The lock or the run's row could not be written: the database is gone. Nothing ran.
    return failed(err);
  }
  log.info('job skipped: another instance is running it');
  return { status: 'skipped', reason: 'another instance holds the lock' };
}

/** Runs a job and, when it succeeded, its follow-up (`then`); returns the job's own outcome. */
export async function runWithFollowUp(job: Job, deps: JobDeps): Promise<JobOutcome> {
  return (await runChain(job, deps))[0]!.outcome;
}

/** Runs a job and its follow-ups, each after the previous one succeeded; returns every outcome, in order. */
export async function runChain(job: Job, deps: JobDeps): Promise<{ job: string; outcome: JobOutcome }[]> {
  const outcome = await runJob(job, deps);
  const rest = outcome.status === 'ok' && job.then ? await runChain(job.then, deps) : [];
  return [{ job: job.name, outcome }, ...rest];
}

/** Pauses before running a job again after the database was unreachable: 5 s, doubling to 5 min; about half an hour in all. */
export const DATABASE_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000, 300_000,
];

/**
 * Runs a job (and its follow-ups); when it failed because the database was unreachable (a restart,
 * an outage), runs it again after each pause in `delaysMs`, until it gets through or the pauses run
 * out. Resolves with the last outcome; never throws. `signal` (shutdown) ends the waiting.
 */
export async function runRetryingOutages(
  job: Job,
  deps: JobDeps,
  opts: { signal?: AbortSignal; delaysMs?: readonly number[] } = {},
): Promise<JobOutcome> {
  const delays = opts.delaysMs ?? DATABASE_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    const outcome = await runWithFollowUp(job, deps);
    const pause = delays[attempt];
    if (outcome.status !== 'failed' || !outcome.databaseUnavailable || pause === undefined || opts.signal?.aborted)
      return outcome;
    deps.log.warn(
      { job: job.name, attempt: attempt + 1, retryInMs: pause },
      'the database is unavailable: the job runs again when it may be back',
    );
    try {
      await delay(pause, undefined, { signal: opts.signal });
    } catch {
      return outcome;
    }
  }
}

/** Starts every job on its cron schedule (no overlapping runs); returns a stop function that waits for running jobs. */
export function startScheduler(
  jobs: readonly Job[],
  deps: JobDeps,
  opts: { databaseRetryDelaysMs?: readonly number[] } = {},
): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const tasks = jobs.map((job) => {
    const expression = typeof job.schedule === 'function' ? job.schedule(deps.config) : job.schedule;
    return cron.schedule(
      expression,
      () => {
        const p = runRetryingOutages(job, deps, { signal: stopping.signal, delaysMs: opts.databaseRetryDelaysMs })
          .catch((err: unknown) => deps.log.error({ err, job: job.name }, 'job runner failed'))
          .finally(() => running.delete(p));
        running.add(p);
        return p;
      },
      { name: job.name, noOverlap: true, timezone: 'Etc/UTC' },
    );
  });
  return {
    async stop() {
      stopping.abort();
      await Promise.all(tasks.map((t) => t.stop()));
      await Promise.allSettled([...running]);
    },
  };
}

/** When each job runs next (for /status), computed from its cron expression in UTC, up to 8 days ahead. */
export function nextRunsOf(
  jobs: readonly Job[],
  deps: Pick<JobDeps, 'config' | 'now'>,
): () => Record<string, Date | null> {
  return () => {
    const out: Record<string, Date | null> = {};
    const from = deps.now().getTime();
    const start = from - (from % 60_000);
    for (const job of jobs) {
      const expression = typeof job.schedule === 'function' ? job.schedule(deps.config) : job.schedule;
      const task = cron.createTask(expression, () => {}, { timezone: 'Etc/UTC' });
      out[job.name] = null;
      for (let minute = 1; minute <= 8 * 24 * 60; minute++) {
        const at = new Date(start + minute * 60_000);
        if (task.match(at)) {
          out[job.name] = at;
          break;
        }
      }
      void task.destroy();
    }
    return out;
  };
}

/**
 * The verdict on a run made of independent attempts (feeds, fetches, lookups): `failed` when every
 * attempt failed, `partial` when some did. `what` names one attempt and several ("feed", "feeds").
 */
export function assessAttempts(
  attempted: number,
  failures: readonly string[],
  what: [one: string, many: string],
): Assessment | undefined {
  if (attempted === 0 || failures.length === 0) return undefined;
  const first = failures[0]!;
  if (failures.length >= attempted)
    return { status: 'failed', error: `every ${what[0]} failed (${attempted}): ${first}` };
  return { status: 'partial', error: `${failures.length} of ${attempted} ${what[1]} failed: ${first}` };
}
