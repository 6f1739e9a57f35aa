import { Client, GatewayIntentBits, Options, REST, Status, type ClientOptions } from 'discord.js';
import type { Config } from '../../core/config.ts';
import type { GatewayState } from '../../core/ops/health.ts';
import { pacedMakeRequest } from './pace.ts';

/**
 * What discord.js keeps in memory. The bot reads nothing from its caches but guilds, channels, roles
 * and its own member (permission checks): messages it sent or looked up, members and users who
 * clicked, reactions, emojis, stickers and presences are not kept, so memory does not grow with the
 * members who use it or the channels it posts to. Its own member and user always stay.
 */
const CACHE = Options.cacheWithLimits({
  ...Options.DefaultMakeCacheSettings,
  MessageManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  PresenceManager: 0,
  VoiceStateManager: 0,
  ThreadMemberManager: 0,
  GuildMemberManager: { maxSize: 1, keepOverLimit: (member) => member.id === member.client.user.id },
  UserManager: { maxSize: 1, keepOverLimit: (user) => user.id === user.client.user.id },
});

/** Threads the bot no longer sees are dropped hourly (discord.js's default). */
const SWEEPERS: ClientOptions['sweepers'] = { ...Options.DefaultSweeperSettings };

/**
 * The discord.js client for this bot. Only the Guilds intent: slash commands, buttons and
 * autocomplete arrive as interactions, and no message content is ever read. Nothing the bot sends
 * pings anyone unless a message lists the roles itself (render.ts). `DISCORD_API_BASE` points REST
 * (and, through GET /gateway/bot, the gateway) at a local fake in tests. `DISCORD_SHARDS` runs
 * several shards inside this one process (internal sharding). Bot requests are paced under Discord's
 * global limit (pace.ts).
 */
export function createDiscordClient(config: Config, overrides: Partial<ClientOptions> = {}): Client {
  const { shards } = config.discord;
  const rest = { makeRequest: pacedMakeRequest(), ...(config.discord.apiBase && { api: config.discord.apiBase }) };
  const options: ClientOptions = {
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    makeCache: CACHE,
    sweepers: SWEEPERS,
    ...(shards === 'auto' ? { shards: 'auto' } : shards ? { shardCount: shards } : {}),
    ...overrides,
    rest: { ...rest, ...overrides.rest },
  };
  return new Client(options);
}

/** A REST client alone, for work that needs no gateway connection (registering commands from the CLI). */
export function createDiscordRest(config: Config): REST {
  if (!config.discord.token) throw new Error('createDiscordRest: no token');
  return new REST(config.discord.apiBase ? { api: config.discord.apiBase } : {}).setToken(config.discord.token);
}

/** Whether every shard of the gateway is ready, for `/healthz` (a reconnecting shard is named). */
export function gatewayState(client: Client): GatewayState {
  const shards = [...client.ws.shards.values()];
  const waiting = shards.filter((s) => s.status !== Status.Ready);
  if (!client.isReady() || shards.length === 0)
    return { connected: false, detail: 'not connected (logging in or shut down)' };
  if (waiting.length > 0)
    return { connected: false, detail: waiting.map((s) => `shard ${s.id} ${Status[s.status] ?? s.status}`).join(', ') };
  const ping = client.ws.ping >= 0 ? `, heartbeat ${Math.round(client.ws.ping)} ms` : '';
  return { connected: true, detail: `${shards.length} shard${shards.length === 1 ? '' : 's'} ready${ping}` };
}
