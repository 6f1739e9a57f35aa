import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { channels, deliveries, type Channel, type Delivery } from '../schema.ts';
import type { DigestPicture } from '../../src/core/pictures/digest-week.ts';
import type { Reply } from '../../src/core/reply.ts';

/** What an outbox row stores: the message, the one ping it may carry, and what its picture shows (drawn when sent). */
export interface OutboxPayload {
  reply: Reply;
  pingRoleIds: string[];
  threadName?: string;
  picture?: DigestPicture;
}

/** Channels that get digests: enabled and not marked undeliverable. */
export async function activeChannels(db: Db): Promise<Channel[]> {
  return db
    .select()
    .from(channels)
    .where(and(eq(channels.enabled, true), isNull(channels.deliveryError)))
    .orderBy(asc(channels.channelId));
}

/** Whether the digest with this key (a local date) is already in the outbox: posted, being posted or settled empty. */
export async function isDigestPlanned(db: Db, channelId: string, digestKey: string): Promise<boolean> {
  const rows = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.channelId, channelId), eq(deliveries.digestKey, digestKey)))
    .limit(1);
  return rows.length > 0;
}

/** One outbox row of a digest: `payload` null records a quiet day with nothing to post. */
export interface OutboxRow {
  part: number;
  nonce: string;
  payload: OutboxPayload | null;
  paperIds: number[];
}

/**
 * Writes a digest's rows to the outbox before anything is sent, in one transaction that also moves
 * the channel's `lastDigestAt` (so the next digest starts after these papers). An empty digest (one
 * row without payload) is stored as `empty`: the day is settled, and the channel's window is left
 * open so later papers go into the next digest. Planning twice is a no-op.
 */
export async function planDigest(
  db: Db,
  channelId: string,
  digestKey: string,
  rows: OutboxRow[],
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const values = rows.map((r) =>
      r.payload
        ? { channelId, digestKey, part: r.part, nonce: r.nonce, payload: r.payload, paperIds: r.paperIds }
        : { channelId, digestKey, part: r.part, nonce: r.nonce, status: 'empty', payload: {} },
    );
    const inserted = await tx.insert(deliveries).values(values).onConflictDoNothing().returning({ id: deliveries.id });
    if (inserted.length === 0) return false;
    if (rows.some((r) => r.payload))
      await tx.update(channels).set({ lastDigestAt: now, updatedAt: now }).where(eq(channels.channelId, channelId));
    return true;
  });
}

/** Digests with parts still to send (and how many), across days (a crash yesterday is finished today), oldest first. */
export async function unfinishedDigests(db: Db): Promise<{ channelId: string; digestKey: string; parts: number }[]> {
  return db
    .select({ channelId: deliveries.channelId, digestKey: deliveries.digestKey, parts: sql<number>`count(*)::int` })
    .from(deliveries)
    .innerJoin(channels, eq(channels.channelId, deliveries.channelId))
    .where(and(inArray(deliveries.status, ['pending', 'sending']), isNull(channels.deliveryError)))
    .groupBy(deliveries.channelId, deliveries.digestKey)
    .orderBy(asc(deliveries.digestKey), asc(deliveries.channelId));
}

/** A digest's parts not yet sent, in posting order. */
export async function unsentParts(db: Db, channelId: string, digestKey: string): Promise<Delivery[]> {
  return db
    .select()
    .from(deliveries)
    .where(
      and(
        eq(deliveries.channelId, channelId),
        eq(deliveries.digestKey, digestKey),
        inArray(deliveries.status, ['pending', 'sending']),
      ),
    )
    .orderBy(asc(deliveries.part));
}

/**
 * Claims a part for the delivery run `by` before anything is sent for it: one UPDATE, so of any
 * number of runs (two processes, or the scheduled job and `/digest now` in one) exactly one gets the
 * row. A claim older than `staleBefore` (its run died mid-send) is taken over; the part's fresh row
 * (attempts, status) is returned, or null when it is sent already or another run holds it.
 */
export async function claimPart(
  db: Db,
  id: number,
  by: string,
  now: Date,
  staleBefore: Date,
): Promise<Delivery | null> {
  const [row] = await db
    .update(deliveries)
    .set({ claimedBy: by, claimedAt: now })
    .where(
      and(
        eq(deliveries.id, id),
        inArray(deliveries.status, ['pending', 'sending']),
        or(isNull(deliveries.claimedAt), lt(deliveries.claimedAt, staleBefore), eq(deliveries.claimedBy, by)),
      ),
    )
    .returning();
  return row ?? null;
}

/** Recorded before the send: a part found `sending` after a crash is re-sent with the same nonce. */
export async function markPartSending(db: Db, id: number): Promise<void> {
  await db
    .update(deliveries)
    .set({ status: 'sending', attempts: sql`${deliveries.attempts} + 1` })
    .where(eq(deliveries.id, id));
}

export async function markPartSent(db: Db, id: number, messageId: string, now: Date): Promise<void> {
  await db
    .update(deliveries)
    .set({ status: 'sent', messageId, sentAt: now, lastError: null })
    .where(eq(deliveries.id, id));
}

/** A transient failure: the part stays due, unclaimed, and the next run (of any process) retries it. */
export async function markPartRetry(db: Db, id: number, error: string): Promise<void> {
  await db
    .update(deliveries)
    .set({ status: 'pending', lastError: error, claimedBy: null, claimedAt: null })
    .where(eq(deliveries.id, id));
}

/** The bot cannot post here any more: the channel is skipped, with the reason, until it is set up again. */
export async function markUndeliverable(db: Db, channelId: string, reason: string, now: Date): Promise<void> {
  await db
    .update(channels)
    .set({ deliveryError: reason, deliveryErrorAt: now, updatedAt: now })
    .where(eq(channels.channelId, channelId));
}
