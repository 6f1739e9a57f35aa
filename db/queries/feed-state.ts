import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { feedState, type FeedState } from '../schema.ts';
import type { HealthVerdict } from '../../src/core/feeds/health.ts';

export async function getFeedState(db: Db, feed: string): Promise<FeedState | undefined> {
  return (await db.select().from(feedState).where(eq(feedState.feed, feed)))[0];
}

/** Every feed's state, for /status and the digest header. */
export async function listFeedStates(db: Db): Promise<FeedState[]> {
  return db.select().from(feedState).orderBy(asc(feedState.feed));
}

export interface FeedSuccess {
  /** Validators of this response (kept when the server said 304). */
  etag?: string | null;
  lastModified?: string | null;
  /** Moves page by page as pages are stored (recordFeedProgress) and to the run's end on success. */
  cursor?: string | null;
  batchKey?: string | null;
  batchDate?: string | null;
  items: number;
  new: number;
  family: number;
  verdict: HealthVerdict;
}

/** Records a successful poll; the first one also marks the feed initialised (later polls announce). */
export async function recordFeedSuccess(db: DbOrTx, feed: string, r: FeedSuccess, now: Date): Promise<void> {
  const values = {
    ...(r.etag !== undefined && { etag: r.etag }),
    ...(r.lastModified !== undefined && { lastModified: r.lastModified }),
    ...(r.cursor !== undefined && { cursor: r.cursor }),
    ...(r.batchKey !== undefined && { batchKey: r.batchKey }),
    ...(r.batchDate !== undefined && { batchDate: r.batchDate }),
    lastSuccessAt: now,
    consecutiveFailures: 0,
    health: r.verdict.health,
    healthDetail: r.verdict.detail,
    lastItemCount: r.items,
    lastNewCount: r.new,
    lastFamilyCount: r.family,
    updatedAt: now,
  };
  await db
    .insert(feedState)
    .values({ feed, initializedAt: now, ...values })
    .onConflictDoUpdate({
      target: feedState.feed,
      set: { ...values, initializedAt: sql`coalesce(${feedState.initializedAt}, ${now.toISOString()}::timestamptz)` },
    });
}

/**
 * Moves a feed's cursor once a page of its poll is stored (in the page's transaction), so a run that
 * fails later resumes after that page. Success fields (health, counts, initialisation) wait for the end.
 */
export async function recordFeedProgress(db: DbOrTx, feed: string, cursor: string, now: Date): Promise<void> {
  await db
    .insert(feedState)
    .values({ feed, cursor, updatedAt: now })
    .onConflictDoUpdate({ target: feedState.feed, set: { cursor, updatedAt: now } });
}

/** Records a failed poll without touching the cursor (as far as its stored pages moved it) or validators; returns the failure streak. */
export async function recordFeedFailure(
  db: Db,
  feed: string,
  error: string,
  verdictFor: (streak: number) => HealthVerdict,
  now: Date,
): Promise<number> {
  const [row] = await db
    .insert(feedState)
    .values({ feed, lastErrorAt: now, lastError: error, consecutiveFailures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: feedState.feed,
      set: {
        lastErrorAt: now,
        lastError: error,
        consecutiveFailures: sql`${feedState.consecutiveFailures} + 1`,
        updatedAt: now,
      },
    })
    .returning({ streak: feedState.consecutiveFailures });
  const streak = row?.streak ?? 1;
  const v = verdictFor(streak);
  await db.update(feedState).set({ health: v.health, healthDetail: v.detail }).where(eq(feedState.feed, feed));
  return streak;
}
