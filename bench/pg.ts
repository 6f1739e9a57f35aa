/**
 * One embedded Postgres for a benchmark run, in a temp dir removed on stop. Settings are the app's
 * defaults (no `fast`): import timings then match what a user sees on first start.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type DbHandle } from '../db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';

export interface BenchServer {
  server: EmbeddedServer;
  /** The cluster's data folder (postmaster.pid names the server's process). */
  dataDir: string;
  /** A fresh, migrated database. */
  freshDb(name: string): Promise<DbHandle>;
  stop(): Promise<void>;
}

/** A temp folder the `postgres` OS user can traverse (we may run as root, see db/embedded.ts). */
export async function tempParent(prefix: string): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(parent, 0o755);
  return parent;
}

export async function startBenchServer(): Promise<BenchServer> {
  const parent = await tempParent('grpo-bench-');
  const dataDir = path.join(parent, 'pg');
  const server = await startEmbeddedPostgres({ dir: dataDir, persistent: false });
  return {
    server,
    dataDir,
    async freshDb(name) {
      await server.createDatabase(name);
      const handle = createDb(server.url(name));
      await runMigrations(handle.db);
      return handle;
    },
    async stop() {
      await server.stop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}
