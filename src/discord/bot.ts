import { once } from 'node:events';
import cron from 'node-cron';
import { Events, type Client, type ClientOptions } from 'discord.js';
import type { App } from '../app.ts';
import type { Command, CommandDeps } from '../command.ts';
import { ConfigError } from '../config.ts';
import type { Notifier } from '../delivery/notifier.ts';
import type { Poster } from '../delivery/poster.ts';
import { commands as allCommands } from '../../commands/index.ts';
import { startScheduler, type Job, type JobDeps } from '../../jobs/index.ts';
import { JOBS } from '../../jobs/all.ts';
import { notifySubscribersJob } from '../../jobs/notify-subscribers.ts';
import { postDigestsJob } from '../../jobs/post-digests.ts';
import { summarizePendingJob } from '../../jobs/summarize-pending.ts';
import { createDiscordClient } from './client.ts';
import { discordNotifier } from './notifier.ts';
import { discordPoster } from './poster.ts';
import { registerIfChanged } from './register.ts';
import { createRouter, type Router } from './router.ts';

export interface BotOptions {
  /** Defaults to every command in commands/index.ts. */
  commands?: readonly Command[];
  /** The scheduled jobs; defaults to JOBS plus digest posting and subscriber notifications through the bot. Tests pass none. */
  jobs?: (poster: Poster, notifier: Notifier) => readonly Job[];
  /** Extra discord.js options (tests: short timeouts, no identify throttling). */
  clientOptions?: Partial<ClientOptions>;
  deferAfterMs?: number;
}

export interface Bot {
  client: Client;
  poster: Poster;
  notifier: Notifier;
  router: Router;
  /** Graceful shutdown: scheduler (waits for running jobs), in-flight interactions, gateway, database. Idempotent. */
  stop(): Promise<void>;
}

/**
 * JOBS plus what needs the bot: digest posting, and subscriber notifications as the follow-up of
 * every summary run, so that each poll (whose follow-up is the summary run) notifies subscribers.
 */
export function defaultJobs(poster: Poster, notifier: Notifier): readonly Job[] {
  const summarizeThenNotify: Job = { ...summarizePendingJob, then: notifySubscribersJob({ notifier }) };
  const chained = JOBS.map((job): Job => {
    if (job === summarizePendingJob) return summarizeThenNotify;
    return job.then === summarizePendingJob ? { ...job, then: summarizeThenNotify } : job;
  });
  return [...chained, postDigestsJob({ poster })];
}

/** When each job runs next (for /status), computed from its cron expression in UTC, up to 8 days ahead. */
export function nextRunsOf(jobs: readonly Job[], deps: Pick<JobDeps, 'config' | 'now'>): () => Record<string, Date | null> {
  return () => {
    const out: Record<string, Date | null> = {};
    const from = deps.now().getTime();
    const start = from - (from % 60_000);
    for (const job of jobs) {
      const expression = typeof job.schedule === 'function' ? job.schedule(deps.config) : job.schedule;
      const task = cron.createTask(expression, () => {}, { timezone: 'Etc/UTC' });
      out[job.name] = null;
      for (let minute = 1; minute <= 8 * 24 * 60; minute++) {
        const at = new Date(start + minute * 60_000);
        if (task.match(at)) {
          out[job.name] = at;
          break;
        }
      }
      void task.destroy();
    }
    return out;
  };
}

/**
 * Runs the bot on Discord over an opened app: logs in, registers the commands when their
 * definitions changed, answers interactions and starts the scheduler (only one replica actually
 * runs each job: advisory locks). On failure to start, the client is destroyed and the app is left
 * to the caller.
 */
export async function startBot(app: App, opts: BotOptions = {}): Promise<Bot> {
  const { config, log } = app;
  const { token, applicationId, guildId } = config.discord;
  if (!token) throw new ConfigError('DISCORD_TOKEN is not set: the bot token from the Developer Portal (Bot > Reset Token).');
  if (!applicationId) throw new ConfigError('DISCORD_APPLICATION_ID is not set: the application id from the Developer Portal (General Information). It is needed to register the slash commands.');
  const commands = opts.commands ?? allCommands;

  const client = createDiscordClient(config, opts.clientOptions);
  const poster = discordPoster(client);
  const notifier = discordNotifier(client);
  const jobs = (opts.jobs ?? defaultJobs)(poster, notifier);
  const jobDeps: JobDeps = { db: app.handle.db, sql: app.handle.sql, config, log, now: app.deps.now };
  const deps: CommandDeps = { ...app.deps, poster, notifier, nextRuns: nextRunsOf(jobs, jobDeps) };
  const router = createRouter({ deps, commands, deferAfterMs: opts.deferAfterMs });

  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (err) => log.error({ err }, 'discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'discord client warning'));
  client.on(Events.ShardError, (err, shard) => log.error({ err, shard }, 'discord shard error'));
  client.on(Events.ShardDisconnect, (event, shard) => log.warn({ code: event.code, shard }, 'discord shard disconnected'));
  client.on(Events.ShardResume, (shard, replayed) => log.info({ shard, replayed }, 'discord shard resumed'));

  try {
    const ready = once(client, Events.ClientReady);
    await client.login(token);
    await ready;
    log.info({ user: client.user?.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.size }, 'discord ready');
  } catch (err) {
    await client.destroy();
    throw err;
  }

  try {
    const defs = commands.map((c) => c.definition);
    const { registered } = await registerIfChanged(app.handle.db, client.rest, defs, { applicationId, guildId });
    log.info({ registered, count: defs.length, scope: guildId ? `guild ${guildId}` : 'global' }, registered ? 'slash commands registered' : 'slash commands unchanged');
  } catch (err) {
    // The old registration still answers; the hash was not stored, so the next start tries again.
    log.error({ err }, 'slash command registration failed');
  }

  const scheduler = startScheduler(jobs, jobDeps);
  let stopping: Promise<void> | undefined;
  return {
    client,
    poster,
    notifier,
    router,
    stop() {
      stopping ??= (async () => {
        log.info('shutting down');
        await scheduler.stop();
        await router.drain();
        await client.destroy();
        await app.close();
        log.info('shut down');
      })();
      return stopping;
    },
  };
}
