import cron from 'node-cron';
import { finishJobRun, startJobRun } from '../db/queries/job-runs.ts';
import { withTryLock } from '../db/queries/locks.ts';
import type { Config } from '../src/config.ts';
import type { AppDeps } from '../src/deps.ts';

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
}

/** A run that stopped for a reason an operator must fix (its message says what); logged without a stack, it is not a bug. */
export class JobStopped extends Error {
  override name = 'JobStopped';
}

export type JobOutcome = { status: 'ok'; stats: JobStats } | { status: 'skipped'; reason: string } | { status: 'failed'; error: string };

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
  const held = await withTryLock(deps.sql, lockKey(job.lock ?? job.name), async (): Promise<JobOutcome> => {
    const runId = await startJobRun(deps.db, job.name, deps.now());
    try {
      const stats = await job.run({ ...deps, log });
      await finishJobRun(deps.db, runId, { status: 'ok', stats }, deps.now());
      log.info({ ...stats, ms: Math.round(performance.now() - started) }, 'job finished');
      return { status: 'ok', stats };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await finishJobRun(deps.db, runId, { status: 'failed', error }, deps.now()).catch(() => {});
      log.error({ ...(err instanceof JobStopped ? { error } : { err }), ms: Math.round(performance.now() - started) }, 'job failed');
      return { status: 'failed', error };
    }
  });
  if (held.locked) return held.value;
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

/** Starts every job on its cron schedule (no overlapping runs); returns a stop function that waits for running jobs. */
export function startScheduler(jobs: readonly Job[], deps: JobDeps): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const tasks = jobs.map((job) => {
    const expression = typeof job.schedule === 'function' ? job.schedule(deps.config) : job.schedule;
    return cron.schedule(expression, () => {
      const p = runWithFollowUp(job, deps).finally(() => running.delete(p));
      running.add(p);
      return p;
    }, { name: job.name, noOverlap: true, timezone: 'Etc/UTC' });
  });
  return {
    async stop() {
      await Promise.all(tasks.map((t) => t.stop()));
      await Promise.allSettled([...running]);
    },
  };
}

/** When each job runs next (for /status), computed from its cron expression in UTC, up to 8 days ahead. */
export function nextRunsOf(jobs: readonly Job[], deps: Pick<JobDeps, 'config' | 'now'>): () => Record<string, Date | null> {
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
