/** Per-server settings (`guilds`): the moderator role and the channel for notifications that cannot be DMed. */
import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { guilds } from '../schema.ts';

/** The server's channel for subscription mentions, if one is set. */
export async function guildNotifyChannel(db: Db, guildId: string | null | undefined): Promise<string | null> {
  if (!guildId) return null;
  const [row] = await db.select({ channelId: guilds.notifyChannelId }).from(guilds).where(eq(guilds.guildId, guildId));
  return row?.channelId ?? null;
}

/** The server's moderator role (its members may manage digests and the queue), if one is set. */
export async function guildModeratorRole(db: Db, guildId: string): Promise<string | null> {
  const [row] = await db.select({ roleId: guilds.moderatorRoleId }).from(guilds).where(eq(guilds.guildId, guildId));
  return row?.roleId ?? null;
}
