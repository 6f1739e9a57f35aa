import { lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { interactionClaims } from '../schema.ts';

/**
 * Claims an interaction for the process `by`: true when this call made the row (this process
 * answers), false when another process made it first. One insert on the primary key, so of any
 * number of processes racing, exactly one gets true. Rejects when the database cannot be reached.
 *
 * The commit does not wait for its WAL record to reach the disk (`synchronous_commit = off`, for this
 * transaction only): every live session sees the row at once, which is all a claim needs, and only
 * a Postgres crash in the next fraction of a second could forget it, when the interaction was
 * already given to this process. Waiting for the flush cost every answer a disk write (/help's
 * median rose from 1.6 ms to 14 ms on a loaded machine).
 */
export async function claimInteraction(db: Db, id: string, by: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    const made = await tx
      .insert(interactionClaims)
      .values({ id, by, claimedAt: now })
      .onConflictDoNothing()
      .returning({ id: interactionClaims.id });
    return made.length > 0;
  });
}

/** Removes claims made before `before` (their interactions expired long ago); returns how many. */
export async function pruneInteractionClaims(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(interactionClaims)
    .where(lt(interactionClaims.claimedAt, before))
    .returning({ id: interactionClaims.id });
  return gone.length;
}
