/**
 * What users follow (`user_subscriptions`, unique per user, kind and value) and how they want it
 * delivered (`subscribers`). These are the writes /subscribe, /unsubscribe and /subscriptions make.
 */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { subscribers, userSubscriptions, type Subscriber, type UserSubscription } from '../schema.ts';
export type DeliveryMode = 'dm' | 'channel' | 'off';

/** A user without a `subscribers` row gets these. */
export const DEFAULT_SUBSCRIBER = { mode: 'dm', channelId: null, dailyCap: 10 } as const;

export async function getSubscriber(db: Db, userId: string): Promise<Subscriber | undefined> {
  return (await db.select().from(subscribers).where(eq(subscribers.userId, userId)))[0];
}

/**
 * Creates or updates the user's delivery settings; only the given fields change. The server is
 * remembered (its notification channel is the fallback for channel delivery) when given.
 */
export async function saveSubscriber(
  db: Db,
  userId: string,
  guildId: string | undefined,
  set: { mode?: DeliveryMode; channelId?: string | null; dailyCap?: number },
  now: Date,
): Promise<Subscriber> {
  const values = { ...set, ...(guildId && { guildId }), updatedAt: now };
  const [row] = await db
    .insert(subscribers)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: subscribers.userId, set: values })
    .returning();
  return row!;
}

export async function listSubscriptions(db: Db, userId: string): Promise<UserSubscription[]> {
  return db
    .select()
    .from(userSubscriptions)
    .where(eq(userSubscriptions.userId, userId))
    .orderBy(asc(userSubscriptions.kind), asc(userSubscriptions.value));
}

/**
 * Follows something, or updates an existing subscription's exclusions. `created` tells which; the
 * creation time of an existing subscription is kept (it decides which papers are new to it).
 */
export async function addSubscription(
  db: Db,
  s: { userId: string; guildId?: string; kind: string; value: string; exclude: string | null },
  now: Date,
): Promise<{ row: UserSubscription; created: boolean }> {
  const [row] = await db
    .insert(userSubscriptions)
    .values({
      userId: s.userId,
      guildId: s.guildId ?? null,
      kind: s.kind,
      value: s.value,
      exclude: s.exclude,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [userSubscriptions.userId, userSubscriptions.kind, userSubscriptions.value],
      set: { exclude: s.exclude },
    })
    .returning({ ...getTableColumns(userSubscriptions), created: sql<boolean>`(xmax = 0)` });
  const { created, ...sub } = row!;
  return { row: sub, created };
}

/** Stops following; false when there was nothing to remove. */
export async function removeSubscription(db: Db, userId: string, kind: string, value: string): Promise<boolean> {
  const rows = await db
    .delete(userSubscriptions)
    .where(
      and(eq(userSubscriptions.userId, userId), eq(userSubscriptions.kind, kind), eq(userSubscriptions.value, value)),
    )
    .returning({ id: userSubscriptions.id });
  return rows.length > 0;
}
