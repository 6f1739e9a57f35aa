import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { jobRuns } from '../schema.ts';

/** A run starts as `running`; until it finishes, `stats` holds the advisory lock it runs under. */
export async function startJobRun(db: Db, job: string, lock: string, now: Date): Promise<number> {
  const [row] = await db
    .insert(jobRuns)
    .values({ job, status: 'running', startedAt: now, stats: { lock } })
    .returning({ id: jobRuns.id });
  return row!.id;
}

/**
 * Marks `interrupted` the runs left `running` under `lock` by a process that died (killed, crashed,
 * lost its database). Only call it while holding that lock: then no such run can be alive.
 * Returns how many there were.
 */
export async function closeInterruptedRuns(db: Db, job: string, lock: string, now: Date): Promise<number> {
  const rows = await db
    .update(jobRuns)
    .set({
      status: 'interrupted',
      error: 'the process stopped before the run finished (killed, crashed or lost the database)',
      finishedAt: now,
    })
    .where(
      and(
        eq(jobRuns.status, 'running'),
        or(sql`${jobRuns.stats}->>'lock' = ${lock}`, and(isNull(jobRuns.stats), eq(jobRuns.job, job))),
      ),
    )
    .returning({ id: jobRuns.id });
  return rows.length;
}

export async function finishJobRun(
  db: Db,
  id: number,
  r: { status: 'ok' | 'partial' | 'failed'; stats?: unknown; error?: string },
  now: Date,
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ status: r.status, stats: r.stats ?? null, error: r.error ?? null, finishedAt: now })
    .where(eq(jobRuns.id, id));
}

export async function lastJobRuns(db: Db, job: string, limit = 5) {
  return db
    .select()
    .from(jobRuns)
    .where(eq(jobRuns.job, job))
    .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
    .limit(limit);
}
