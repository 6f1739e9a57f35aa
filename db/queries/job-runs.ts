import { desc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { jobRuns } from '../schema.ts';

export async function startJobRun(db: Db, job: string, now: Date): Promise<number> {
  const [row] = await db.insert(jobRuns).values({ job, status: 'running', startedAt: now }).returning({ id: jobRuns.id });
  return row!.id;
}

export async function finishJobRun(db: Db, id: number, r: { status: 'ok' | 'failed'; stats?: unknown; error?: string }, now: Date): Promise<void> {
  await db.update(jobRuns).set({ status: r.status, stats: r.stats ?? null, error: r.error ?? null, finishedAt: now }).where(eq(jobRuns.id, id));
}

export async function lastJobRuns(db: Db, job: string, limit = 5) {
  return db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.startedAt), desc(jobRuns.id)).limit(limit);
}
