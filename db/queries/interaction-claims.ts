import { lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { interactionClaims } from '../schema.ts';

/**
 * Claims an interaction for the process `by`: true when this call made the row (this process
 * answers), false when another process made it first. One statement on the primary key, so of any
 * number of processes racing, exactly one gets true. Rejects when the database cannot be reached.
 */
export async function claimInteraction(db: Db, id: string, by: string, now: Date): Promise<boolean> {
  const made = await db
    .insert(interactionClaims)
    .values({ id, by, claimedAt: now })
    .onConflictDoNothing()
    .returning({ id: interactionClaims.id });
  return made.length > 0;
}

/** Removes claims made before `before` (their interactions expired long ago); returns how many. */
export async function pruneInteractionClaims(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(interactionClaims)
    .where(lt(interactionClaims.claimedAt, before))
    .returning({ id: interactionClaims.id });
  return gone.length;
}
