/**
 * Spawned by bench/startup.ts (`tsx bench/startup-probe.ts`, DATA_DIR set to a warm data dir): does
 * what `grpo-digest console` does before its first answer, one step at a time, and prints when each
 * step ended (ms since the process started) as one JSON line. Only node: modules are imported
 * statically, so `boot` is the cost of starting node and tsx alone.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const marks: Record<string, number> = { boot: performance.now() };
const mark = (step: string) => {
  marks[step] = performance.now();
};

// The whole module graph the CLI loads before it runs a command.
await import('../src/cli.ts');
mark('importCli');
const [
  { loadConfig },
  { createLogger },
  { startEmbeddedPostgres },
  { EMBEDDED_DATABASE },
  { createDb },
  { runMigrations },
  { countPapers },
  { answerLine },
  { default: postgres },
] = await Promise.all([
  import('../src/core/config.ts'),
  import('../src/core/log.ts'),
  import('../db/embedded.ts'),
  import('../db/open.ts'),
  import('../db/client.ts'),
  import('../db/migrate.ts'),
  import('../db/queries/stats.ts'),
  import('../src/adapters/console/run.ts'),
  import('postgres'),
]);
const config = loadConfig(process.env);
const server = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'pg'), persistent: true });
mark('postgresStart');
// As db/open.ts: make sure the app database exists (a query on the admin database).
const admin = postgres(server.url('postgres'), { max: 1, onnotice: () => {} });
await admin`select 1 from pg_database where datname = ${EMBEDDED_DATABASE}`;
await admin.end();
mark('ensureDatabase');
const handle = createDb(server.url(EMBEDDED_DATABASE));
await runMigrations(handle.db);
mark('migrationsCheck');
await countPapers(handle.db);
mark('seedCheck');
await answerLine('/help', { db: handle.db, config, log: createLogger('warn'), now: () => new Date(), llm: null });
mark('firstAnswer');
await handle.close();
await server.stop();
mark('shutdown');
process.stdout.write(`${JSON.stringify(marks)}\n`);
