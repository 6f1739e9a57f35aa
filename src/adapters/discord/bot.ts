import { once } from 'node:events';
import { Events, type Client, type ClientOptions } from 'discord.js';
import type { Command, CommandDeps } from '../../core/command.ts';
import { discordCredentials, type Config } from '../../core/config.ts';
import { ExternalServiceError } from '../../core/errors.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import type { Poster } from '../../core/delivery/poster.ts';
import type { OpsSource } from '../ops/server.ts';
import { databaseClaims } from './claim.ts';
import { createDiscordClient, gatewayState } from './client.ts';
import { watchInteractionLatency } from './latency.ts';
import { discordNotifier } from './notifier.ts';
import { discordPoster } from './poster.ts';
import { registerIfChanged } from './register.ts';
import { createRouter, type Router } from './router.ts';

/** The Discord client, not yet logged in, with what it offers the rest of the app: posting, direct messages, and the operator's view (`ops`). */
export interface DiscordPorts {
  client: Client;
  poster: Poster;
  notifier: Notifier;
  ops: OpsSource;
  /** Tells the latency watcher an interaction is another process's to answer (the router calls it). */
  declined(interactionId: string): void;
}

export function createDiscordPorts(config: Config, clientOptions?: Partial<ClientOptions>): DiscordPorts {
  discordCredentials(config);
  const client = createDiscordClient(config, clientOptions);
  const onDeclined = new Set<(id: string) => void>();
  const ops: OpsSource = {
    gateway: () => gatewayState(client),
    watchLatency: (sink) =>
      watchInteractionLatency(client, sink, (listener) => {
        onDeclined.add(listener);
        return () => onDeclined.delete(listener);
      }),
  };
  const declined = (id: string) => {
    for (const listener of onDeclined) listener(id);
  };
  return { client, poster: discordPoster(client), notifier: discordNotifier(client), ops, declined };
}

export interface Connection {
  router: Router;
  /** Waits for in-flight answers, then closes the gateway. Idempotent. */
  disconnect(): Promise<void>;
}

/**
 * Connects the client: the router answers interactions, events are logged, the client logs in, and
 * the slash commands are registered when their definitions changed since the last registration. On
 * failure to log in, the client is destroyed and the error thrown.
 */
export async function connectDiscord(
  ports: DiscordPorts,
  deps: CommandDeps,
  opts: { commands: readonly Command[]; deferAfterMs?: number },
): Promise<Connection> {
  const { client } = ports;
  const { config, log } = deps;
  const { token, applicationId } = discordCredentials(config);
  const { guildId } = config.discord;
  const claims = databaseClaims(deps);
  const router = createRouter({
    deps,
    claims,
    commands: opts.commands,
    deferAfterMs: opts.deferAfterMs,
    onDeclined: ports.declined,
  });

  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (err) => log.error({ err }, 'discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'discord client warning'));
  client.on(Events.ShardError, (err, shard) => log.error({ err, shard }, 'discord shard error'));
  client.on(Events.ShardDisconnect, (event, shard) =>
    log.warn({ code: event.code, shard }, 'discord shard disconnected'),
  );
  client.on(Events.ShardResume, (shard, replayed) => log.info({ shard, replayed }, 'discord shard resumed'));

  try {
    const ready = once(client, Events.ClientReady);
    await client.login(token);
    await ready;
    log.info(
      { user: client.user?.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.size, claimsAs: claims.by },
      'discord ready',
    );
  } catch (err) {
    await client.destroy();
    // Said as Discord's: a refused connection here is Discord's API, not the database, whatever its code.
    throw new ExternalServiceError(
      `could not log in to Discord (${config.discord.apiBase ?? 'discord.com'}): ${causeOf(err)}. Check DISCORD_TOKEN, the network, and DISCORD_API_BASE if set.`,
      { cause: err },
    );
  }

  try {
    const defs = opts.commands.map((c) => c.definition);
    const { registered } = await registerIfChanged(
      deps.db,
      client.rest,
      defs,
      { applicationId, guildId },
      { now: deps.now() },
    );
    log.info(
      { registered, count: defs.length, scope: guildId ? `guild ${guildId}` : 'global' },
      registered ? 'slash commands registered' : 'slash commands unchanged',
    );
  } catch (err) {
    // The old registration still answers; the hash was not stored, so the next start tries again.
    log.error({ err }, 'slash command registration failed');
  }

  let closing: Promise<void> | undefined;
  return {
    router,
    disconnect() {
      closing ??= (async () => {
        await router.drain();
        await client.destroy();
      })();
      return closing;
    },
  };
}

/** A failed login's cause in a few words: the socket's code (ECONNREFUSED, ENOTFOUND) when there is one. */
function causeOf(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `network error ${code}`;
    const errors = (e as { errors?: unknown[] }).errors;
    e = (e as { cause?: unknown }).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
}
