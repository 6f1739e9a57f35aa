import { performance } from 'node:perf_hooks';
import type { CommandDeps } from './command.ts';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type OpenedDb } from '../db/open.ts';
import { countPapers } from '../db/queries/stats.ts';

export interface App {
  config: Config;
  log: Logger;
  handle: OpenedDb;
  deps: CommandDeps;
  close(): Promise<void>;
}

/**
 * The composition root: config -> logger -> database (embedded when no DATABASE_URL) -> migrations
 * -> seed corpus on first start. Adapters (console, Discord) and jobs are started by the caller.
 */
export async function createApp(config: Config, opts: { log?: Logger; seedIfEmpty?: boolean } = {}): Promise<App> {
  const log = opts.log ?? createLogger(config.logLevel);
  const t0 = performance.now();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  log.debug({ ms: Math.round(performance.now() - t0), embedded: Boolean(handle.embedded) }, 'database ready');
  if (opts.seedIfEmpty !== false && (await countPapers(handle.db)) === 0) {
    // Loaded only when needed: the importer pulls in the parsers and the repair model.
    const { importSeeds, SEED_DIR } = await import('../seeds/import.ts');
    const stats = await importSeeds(handle.db, SEED_DIR);
    log.info({ papers: stats.papers.added, notes: stats.notes.added, citations: stats.citations.added }, 'seed corpus imported (first start)');
  }
  const deps: CommandDeps = { db: handle.db, config, log, now: () => new Date() };
  let closed = false;
  return {
    config,
    log,
    handle,
    deps,
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}
