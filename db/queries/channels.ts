/**
 * Digest channel configuration: read, set up (upsert), switch off, and the channel's last digest.
 * The `channels` row is what the post-digests job reads; these are the writes `/digest` makes.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { DigestSettings } from '../../src/core/delivery/settings.ts';
import { channels, deliveries, type Channel } from '../schema.ts';

export async function getChannel(db: Db, channelId: string): Promise<Channel | undefined> {
  return (await db.select().from(channels).where(eq(channels.channelId, channelId)))[0];
}

/** The channels of a server that have a digest set up (on or off), by channel id. */
export async function guildDigestChannels(db: Db, guildId: string): Promise<string[]> {
  const rows = await db
    .select({ channelId: channels.channelId })
    .from(channels)
    .where(eq(channels.guildId, guildId))
    .orderBy(channels.channelId);
  return rows.map((r) => r.channelId);
}

/**
 * Creates or replaces a channel's digest settings and turns it on. Clears a recorded delivery
 * error, so a channel whose permissions were fixed resumes with the next due digest. The server
 * and creator of an existing row are kept. `lastDigestAt` is kept too: the next digest still
 * starts after the papers already posted.
 */
export async function saveChannelSettings(
  db: Db,
  target: { channelId: string; guildId: string; userId: string },
  s: DigestSettings,
  now: Date,
): Promise<Channel> {
  const values = { ...s, enabled: true, deliveryError: null, deliveryErrorAt: null, updatedAt: now };
  const [row] = await db
    .insert(channels)
    .values({
      channelId: target.channelId,
      guildId: target.guildId,
      createdBy: target.userId,
      createdAt: now,
      ...values,
    })
    .onConflictDoUpdate({ target: channels.channelId, set: values })
    .returning();
  return row!;
}

/** Stops a channel's digests (the row and its history stay). Returns the row, or undefined when none exists. */
export async function disableChannel(db: Db, channelId: string, now: Date): Promise<Channel | undefined> {
  const [row] = await db
    .update(channels)
    .set({ enabled: false, updatedAt: now })
    .where(eq(channels.channelId, channelId))
    .returning();
  return row;
}

export interface LastDigest {
  digestKey: string;
  parts: number;
  sent: number;
  /** A quiet day recorded without a post. */
  empty: boolean;
  lastSentAt: Date | null;
}

/** The channel's most recent digest in the outbox (by its local date key), with how many parts went out. */
export async function lastDigest(db: Db, channelId: string): Promise<LastDigest | undefined> {
  const [row] = await db
    .select({
      digestKey: deliveries.digestKey,
      parts: sql<number>`count(*)::int`,
      sent: sql<number>`count(*) filter (where ${deliveries.status} = 'sent')::int`,
      empty: sql<boolean>`bool_and(${deliveries.status} = 'empty')`,
      lastSentAt: sql<string | null>`max(${deliveries.sentAt})::text`,
    })
    .from(deliveries)
    .where(eq(deliveries.channelId, channelId))
    .groupBy(deliveries.digestKey)
    .orderBy(desc(deliveries.digestKey))
    .limit(1);
  if (!row) return undefined;
  return { ...row, lastSentAt: row.lastSentAt ? new Date(row.lastSentAt) : null };
}
