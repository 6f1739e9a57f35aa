import path from 'node:path';
import postgres from 'postgres';
import { createDb, type DbHandle } from './client.ts';
import { SESSION_APPLICATION, startEmbeddedPostgres, type EmbeddedServer, type EmbeddedStep } from './embedded.ts';
import { runMigrations } from './migrate.ts';
import { withLock } from './locks.ts';

export const EMBEDDED_DATABASE = 'grpo_digest';

/** One advisory lock around migrations and the first start's seed import (any 32-bit key no job uses). */
const SETUP_LOCK = 0x67727073;

export interface OpenedDb extends DbHandle {
  /** Set when the app started its own embedded Postgres (no DATABASE_URL). */
  embedded?: EmbeddedServer;
  /** Migrations this start applied (0 when the schema was already current). */
  migrationsApplied: number;
}

/**
 * What the embedded server's watchdog saw: it went away, came back, or could not be started again.
 * `shared` says whether another grpo-digest ran it (down: this process is taking over; restarted: this
 * process now uses the server another one started meanwhile). `lost`: the server another grpo-digest ran
 * is gone and this process could not start it, after `attempts` tries; it gives up.
 */
export type EmbeddedEvent =
  | { kind: 'down'; shared: boolean }
  | { kind: 'restarted'; attempts: number; shared: boolean; wasShared: boolean }
  | { kind: 'restart-failed'; attempt: number; error: unknown; wasShared: boolean }
  | { kind: 'lost'; attempts: number; error: unknown };

/** Failed attempts to take over the server of a grpo-digest that exited before this process gives up. */
const TAKEOVER_ATTEMPTS = 3;

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Connections in the pool; default 10. */
  poolSize?: number;
  migrate?: boolean;
  /** Runs after the migrations, under the same lock (the first start's seed import). */
  setup?: (handle: DbHandle) => Promise<void>;
  /** How often the embedded server is checked and restarted when it went away; 0: never. Default 1 s. */
  watchMs?: number;
  onEmbeddedEvent?: (e: EmbeddedEvent) => void;
  /** A long-lived process (the bot, the console): a server's owner does not wait for its idle connections at exit, as it takes over. */
  session?: boolean;
  /** Told before each slow step of starting the embedded server. */
  onStep?: (step: EmbeddedStep) => void;
}

/** The connection refused at open: the message names the database and the cause. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

/**
 * Connects to DATABASE_URL when set, otherwise starts the embedded Postgres under `<dataDir>/pg`
 * (and restarts it when it goes away); checks the connection, then applies migrations and `setup`
 * under one advisory lock. `close()` also stops the embedded server.
 */
export async function openDatabase(opts: OpenOptions): Promise<OpenedDb> {
  let url = opts.databaseUrl;
  let embedded: EmbeddedServer | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(opts.dataDir, 'pg'),
      persistent: true,
      ...(opts.onStep && { onStep: opts.onStep }),
    });
    await ensureDatabase(embedded.url('postgres'), EMBEDDED_DATABASE);
    url = embedded.url(EMBEDDED_DATABASE);
  }
  const where = embedded
    ? `the embedded Postgres in ${path.join(opts.dataDir, 'pg')}`
    : `DATABASE_URL (${describeUrl(url)})`;
  const server = embedded;
  const handle = createDb(url, {
    max: opts.poolSize,
    ...(opts.session && { applicationName: SESSION_APPLICATION }),
    // The server may move: restarted on another port, or taken over from a grpo-digest that exited.
    ...(server && { target: () => ({ host: '127.0.0.1', port: server.port }) }),
  });
  const unwatch = server ? watchEmbedded(server, opts.watchMs ?? 1_000, opts.onEmbeddedEvent) : () => {};
  const close = async () => {
    unwatch();
    await handle.close();
    await embedded?.stop();
  };
  let migrationsApplied = 0;
  try {
    await checkConnection(handle, where);
    await withLock(handle.sql, SETUP_LOCK, async () => {
      if (opts.migrate !== false) migrationsApplied = await runMigrations(handle.db);
      await opts.setup?.(handle);
    });
  } catch (err) {
    await close();
    throw err;
  }
  return { ...handle, embedded, close, migrationsApplied };
}

/** `postgres://user@host:port/db`: the URL without its password, to name it in a message. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'an unreadable URL';
  }
}

/** One round trip before anything else, so a wrong URL says so instead of failing inside the first migration. */
async function checkConnection(handle: DbHandle, where: string): Promise<void> {
  try {
    await handle.sql`select 1`;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const why =
      e.code === '28P01'
        ? 'the password is wrong'
        : e.code === '3D000'
          ? 'the database does not exist'
          : e.code === 'ECONNREFUSED'
            ? 'nothing listens there (connection refused)'
            : (e.message ?? String(err));
    throw new DatabaseUnreachableError(`Cannot connect to ${where}: ${why}.`, { cause: err });
  }
}

/**
 * Checks the embedded server every `everyMs` and, when it went away (killed, OOM, a crash, or the
 * grpo-digest that ran it exited or restarted), starts it again or takes it over, with a growing pause
 * between failed attempts (1, 2, 4 ... 30 s). The pool reconnects by itself to wherever it now runs.
 * A takeover that fails `TAKEOVER_ATTEMPTS` times is reported `lost` and no longer tried.
 * Returns a function that stops watching.
 */
function watchEmbedded(
  server: EmbeddedServer,
  everyMs: number,
  onEvent: (e: EmbeddedEvent) => void = () => {},
): () => void {
  if (everyMs <= 0) return () => {};
  let busy = false;
  let attempts = 0;
  let skip = 0;
  let wasShared = server.shared;
  const timer = setInterval(() => {
    if (busy || server.isRunning()) return;
    if (skip > 0) return void skip--;
    busy = true;
    if (attempts === 0) {
      wasShared = server.shared;
      onEvent({ kind: 'down', shared: wasShared });
    }
    attempts++;
    server
      .restart()
      .then(
        () => {
          onEvent({ kind: 'restarted', attempts, shared: server.shared, wasShared });
          attempts = 0;
        },
        (error: unknown) => {
          if (wasShared && attempts >= TAKEOVER_ATTEMPTS) {
            clearInterval(timer);
            return onEvent({ kind: 'lost', attempts, error });
          }
          onEvent({ kind: 'restart-failed', attempt: attempts, error, wasShared });
          skip = Math.min(30, 2 ** (attempts - 1)) * Math.max(1, Math.round(1_000 / everyMs)) - 1;
        },
      )
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    // Two first starts at once both find it missing: the one that loses the race uses the other's.
    if (rows.length === 0)
      await sql.unsafe(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
  } finally {
    await sql.end();
  }
}
