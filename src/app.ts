import { performance } from 'node:perf_hooks';
import type { Sql } from 'postgres';
import type { Db, DbHandle } from '../db/client.ts';
import type { EmbeddedStep } from '../db/embedded.ts';
import { openDatabase, type EmbeddedEvent, type OpenedDb } from '../db/open.ts';
import { countPapers } from '../db/queries/stats.ts';
import type { Command } from './core/command.ts';
import type { Config } from './core/config.ts';
import type { AppDeps } from './core/deps.ts';
import type { createDiscordPorts, DiscordPorts } from './adapters/discord/bot.ts';
import type { Router } from './adapters/discord/router.ts';
import type { JobPorts } from '../jobs/graph.ts';
import type { Job } from '../jobs/index.ts';
import { createLlm } from './services/llm/anthropic.ts';
import { createLogger, type Logger } from './core/log.ts';
import { errorSummary, registerSecrets } from './core/errors.ts';
import type { Progress } from './core/progress.ts';
import { searchIndex } from './services/search/search.ts';

/** Tells a person at a terminal what a slow start is doing (the CLI writes it to stderr); tests pass none. */
export interface Narrator {
  say(line: string): void;
  bar(label: string): Progress;
}

/** The embedded database's slow steps in words; a normal restart ('start') is quick and says nothing. */
function narrateStep(n: Narrator, s: EmbeddedStep): void {
  if (s.kind === 'create') n.say(`First start: creating the embedded Postgres database in ${s.dir} (usually 3-10 s).`);
  if (s.kind === 'attach')
    n.say(`Using the database of the grpo-digest already running on this folder (process ${s.ownerPid}).`);
  if (s.kind === 'recover')
    n.say(
      `Stopping the embedded Postgres (process ${s.postgresPid}) that a grpo-digest which ended without closing left running in ${s.dir}; starting afresh.`,
    );
}

export interface App {
  config: Config;
  log: Logger;
  handle: OpenedDb;
  /** The app's dependencies; adapters add their ports (poster, notifier, nextRuns) with `withPorts`. */
  deps: AppDeps;
  close(): Promise<void>;
}

export interface DepsParts {
  db: Db;
  sql: Sql;
  config: Config;
  log?: Logger;
  now?: () => Date;
  random?: () => number;
}

/**
 * The one place the app's dependencies are built from a connection and the config: the logger, the
 * clock and the language model (null without a key). `createApp` uses it; so do tests and benchmarks
 * that bring their own database, so every caller gets the same wiring.
 */
export function buildDeps(p: DepsParts): AppDeps {
  registerSecrets(
    p.config.anthropic.apiKey,
    p.config.discord.token,
    p.config.semanticScholar.apiKey,
    databasePassword(p.config.databaseUrl),
  );
  const log = p.log ?? createLogger(p.config.logLevel);
  return {
    db: p.db,
    sql: p.sql,
    config: p.config,
    log,
    now: p.now ?? (() => new Date()),
    llm: createLlm(p.config.anthropic, p.config.llm, log),
    ...(p.random && { random: p.random }),
  };
}

function databasePassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

export interface CreateAppOptions {
  log?: Logger;
  seedIfEmpty?: boolean;
  now?: () => Date;
  narrator?: Narrator;
  watchMs?: number;
  /** A long-lived process (the bot, the console), which takes the embedded server over when its owner exits. */
  session?: boolean;
  /**
   * The embedded server another grpo-digest ran is gone and this process could not start it: what
   * happened and what to do, in one line. The caller ends the process (the app is closed first).
   */
  onDatabaseLost?: (message: string) => void;
}

/**
 * The composition root: config -> logger -> database (embedded when no DATABASE_URL) -> migrations
 * -> dependencies -> seed corpus on first start. Adapters (console, Discord) and the scheduler are
 * started by the caller with `app.deps`.
 */
export async function createApp(config: Config, opts: CreateAppOptions = {}): Promise<App> {
  const log = opts.log ?? createLogger(config.logLevel);
  const narrator = opts.narrator;
  const t0 = performance.now();
  let deps: AppDeps | undefined;
  // Runs under the migrations' lock, so two first starts on one empty database take turns. A throw
  // (e.g. an ANTHROPIC_MODEL that cannot work) stops the embedded Postgres before it is reported.
  const setup = async (h: DbHandle) => {
    deps = buildDeps({ db: h.db, sql: h.sql, config, log, now: opts.now });
    if (opts.seedIfEmpty !== false && (await countPapers(h.db)) === 0) await importSeedCorpus(deps, log, narrator);
  };
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    setup,
    watchMs: opts.watchMs,
    session: opts.session,
    onEmbeddedEvent: (e) => {
      logEmbeddedEvent(log, e);
      if (e.kind === 'lost') opts.onDatabaseLost?.(lostMessage(config.dataDir, e.error));
    },
    ...(narrator && { onStep: (s: EmbeddedStep) => narrateStep(narrator, s) }),
  });
  registerSecrets(handle.embedded?.password);
  log.debug(
    { ms: Math.round(performance.now() - t0), embedded: Boolean(handle.embedded), shared: handle.embedded?.shared },
    'database ready',
  );
  let closed = false;
  return {
    config,
    log,
    handle,
    deps: deps!,
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

async function importSeedCorpus(deps: AppDeps, log: Logger, narrator: Narrator | undefined): Promise<void> {
  narrator?.say(
    'First start: reading the 238 seed papers and repairing their Chinese notes, then storing them (usually 1-5 s).',
  );
  // Loaded only when needed: the importer pulls in the parsers and the repair model.
  const { importSeeds, SEED_DIR } = await import('../seeds/import.ts');
  const bar = narrator?.bar('Importing seed papers');
  const stats = await importSeeds(deps, SEED_DIR, { onProgress: (done, total) => bar?.update(done, total) });
  bar?.stop();
  narrator?.say(`Imported ${stats.papers.added} papers with ${stats.notes.added} Chinese notes. Ready.`);
  log.info(
    { papers: stats.papers.added, notes: stats.notes.added, citations: stats.citations.added },
    'seed corpus imported (first start)',
  );
}

function logEmbeddedEvent(log: Logger, e: EmbeddedEvent): void {
  if (e.kind === 'down' && e.shared) log.info('the grpo-digest that ran the embedded Postgres stopped; taking it over');
  else if (e.kind === 'down')
    log.error('the embedded Postgres went away; restarting it (commands and jobs fail until it is back)');
  else if (e.kind === 'restarted' && e.shared)
    log.warn('the embedded Postgres moved; now using the one another grpo-digest runs on this folder');
  else if (e.kind === 'restarted' && e.wasShared)
    log.warn('the grpo-digest that ran the embedded Postgres stopped; this one runs it now');
  else if (e.kind === 'restarted') log.warn({ attempts: e.attempts }, 'the embedded Postgres is back');
  // A takeover's failures are logged at info: the process ends with one line saying so (onDatabaseLost).
  else if (e.kind === 'restart-failed')
    log[e.wasShared ? 'info' : 'error'](
      { err: e.error, attempt: e.attempt },
      e.wasShared
        ? 'could not take the embedded Postgres over; retrying'
        : 'the embedded Postgres did not start again; retrying',
    );
  else log.info({ err: e.error, attempts: e.attempts }, 'could not take the embedded Postgres over; giving up');
}

/** The one line a process says when it ends because the database it shared is gone for good. */
function lostMessage(dataDir: string, err: unknown): string {
  return `The grpo-digest that ran the database in ${dataDir} stopped, and this one could not start it (${errorSummary(err, 200)}). Start grpo-digest again.`;
}

export interface BotOptions {
  /** Defaults to every command in commands/index.ts. */
  commands?: readonly Command[];
  /** The scheduled jobs; defaults to the whole graph (jobs/graph.ts) with the bot's poster and notifier. Tests pass none. */
  jobs?: (ports: Required<JobPorts>) => readonly Job[];
  /** Extra discord.js options (tests: short timeouts, no identify throttling). */
  clientOptions?: Parameters<typeof createDiscordPorts>[1];
  deferAfterMs?: number;
}

export interface Bot extends DiscordPorts {
  router: Router;
  /** The health and metrics endpoint, when METRICS_PORT is set. */
  opsUrl?: string;
  /** Graceful shutdown: scheduler (waits for running jobs), in-flight interactions, gateway, database. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs the app on Discord: the client's ports (poster, notifier) complete the dependencies, the job
 * graph is built with them, the adapter connects (router, events, login, registration) and the
 * scheduler starts (only one replica actually runs each job: advisory locks). The Discord modules are
 * loaded only here, so the console starts without them. On failure to connect, the app is left open
 * for the caller to close.
 */
export async function startBot(app: App, opts: BotOptions = {}): Promise<Bot> {
  const [
    { createDiscordPorts, connectDiscord },
    { createJobs },
    { nextRunsOf, startScheduler },
    { commands: allCommands },
    { startOpsEndpoint },
  ] = await Promise.all([
    import('./adapters/discord/bot.ts'),
    import('../jobs/graph.ts'),
    import('../jobs/index.ts'),
    import('../commands/index.ts'),
    import('./adapters/ops/server.ts'),
  ]);
  const ports = createDiscordPorts(app.config, opts.clientOptions);
  const jobs = (opts.jobs ?? createJobs)({ poster: ports.poster, notifier: ports.notifier });
  const deps: AppDeps = {
    ...app.deps,
    poster: ports.poster,
    notifier: ports.notifier,
    nextRuns: nextRunsOf(jobs, app.deps),
  };
  // Before connecting: a port in use fails the start at once, and /healthz reports the login too.
  const { port } = app.config.ops;
  const ops = port === undefined ? undefined : await startOpsEndpoint(deps, { ...app.config.ops, port }, ports.ops);
  let connection;
  try {
    connection = await connectDiscord(ports, deps, {
      commands: opts.commands ?? allCommands,
      deferAfterMs: opts.deferAfterMs,
    });
  } catch (err) {
    await ops?.close();
    throw err;
  }
  const scheduler = startScheduler(jobs, deps);
  // The first search builds the index (a second or more on a large corpus): build it now rather than in someone's search.
  const t0 = performance.now();
  searchIndex(deps.db).then(
    (index) => app.log.info({ papers: index.size, ms: Math.round(performance.now() - t0) }, 'search index built'),
    (err: unknown) => app.log.warn({ err }, 'search index warm-up failed; the first search builds it'),
  );
  let stopping: Promise<void> | undefined;
  return {
    ...ports,
    router: connection.router,
    ...(ops && { opsUrl: ops.url }),
    stop() {
      stopping ??= (async () => {
        app.log.info('shutting down');
        await scheduler.stop();
        await connection.disconnect();
        await ops?.close();
        await app.close();
        app.log.info('shut down');
      })();
      return stopping;
    },
  };
}
