import path from 'node:path';
import postgres from 'postgres';
import { createDb, type DbHandle } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedServer, type EmbeddedStep } from './embedded.ts';
import { runMigrations } from './migrate.ts';

export const EMBEDDED_DATABASE = 'grpo_digest';

export interface OpenedDb extends DbHandle {
  /** Set when the app started its own embedded Postgres (no DATABASE_URL). */
  embedded?: EmbeddedServer;
}

/**
 * Connects to DATABASE_URL when set, otherwise starts the embedded Postgres under `<dataDir>/pg`;
 * then applies migrations. `close()` also stops the embedded server.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; migrate?: boolean; onStep?: (step: EmbeddedStep) => void }): Promise<OpenedDb> {
  let url = opts.databaseUrl;
  let embedded: EmbeddedServer | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dir: path.join(opts.dataDir, 'pg'), persistent: true, ...(opts.onStep && { onStep: opts.onStep }) });
    await ensureDatabase(embedded.url('postgres'), EMBEDDED_DATABASE);
    url = embedded.url(EMBEDDED_DATABASE);
  }
  const handle = createDb(url);
  try {
    if (opts.migrate !== false) await runMigrations(handle.db);
  } catch (err) {
    await handle.close();
    await embedded?.stop();
    throw err;
  }
  return {
    ...handle,
    embedded,
    async close() {
      await handle.close();
      await embedded?.stop();
    },
  };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end();
  }
}
