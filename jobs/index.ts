import cron from 'node-cron';
import type { Sql } from 'postgres';
import type { Db } from '../db/client.ts';
import { finishJobRun, startJobRun } from '../db/queries/job-runs.ts';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/log.ts';

/** What a job may use; built once by the composition root. */
export interface JobDeps {
  db: Db;
  /** The raw driver, for session-level advisory locks on a reserved connection. */
  sql: Sql;
  config: Config;
  log: Logger;
  now: () => Date;
}

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
  const conn = await deps.sql.reserve();
  const started = performance.now();
  try {
    const [row] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(${lockKey(job.lock ?? job.name)}) as locked`;
    if (!row?.locked) {
      log.info('job skipped: another instance is running it');
      return { status: 'skipped', reason: 'another instance holds the lock' };
    }
    const runId = await startJobRun(deps.db, job.name);
    try {
      const stats = await job.run({ ...deps, log });
      await finishJobRun(deps.db, runId, { status: 'ok', stats });
      log.info({ ...stats, ms: Math.round(performance.now() - started) }, 'job finished');
      return { status: 'ok', stats };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await finishJobRun(deps.db, runId, { status: 'failed', error }).catch(() => {});
      log.error({ err, ms: Math.round(performance.now() - started) }, 'job failed');
      return { status: 'failed', error };
    } finally {
      await conn`select pg_advisory_unlock(${lockKey(job.lock ?? job.name)})`;
    }
  } finally {
    conn.release();
  }
}

/** Runs a job and, when it succeeded, its follow-up (`then`); returns the job's own outcome. */
export async function runWithFollowUp(job: Job, deps: JobDeps): Promise<JobOutcome> {
  const outcome = await runJob(job, deps);
  if (outcome.status === 'ok' && job.then) await runWithFollowUp(job.then, deps);
  return outcome;
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
