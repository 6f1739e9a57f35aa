/**
 * The compiled bot as its own process for benchmarks (`node dist/cli.js start`, what `npm start`
 * runs), pointed at local fakes only: Discord at the fake, the feeds at a local server, no model key.
 * Its memory is read from /proc, as an operator's `ps` would show it.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds dist/ from the code under measurement (as `npm ci` does through `prepare`). */
export function buildCli(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export interface BotProcess {
  child: ChildProcess;
  pid: number;
  /** Resident memory now, MB. */
  rssMb(): Promise<number>;
  /** SIGTERM, then waits for the graceful shutdown; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function startBotProcess(
  env: Record<string, string>,
  opts: { logFile: string; nodeArgs?: string[] },
): BotProcess {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join(ROOT, 'dist/cli.js'), 'start'], {
    cwd: ROOT,
    // MALLOC_ARENA_MAX passes through, so the memory figures can be taken with the allocator setting an operator would use.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      ...(process.env.MALLOC_ARENA_MAX && { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX }),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.pipe(createWriteStream(opts.logFile));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    rssMb: () => rssMb(child.pid!),
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/**
 * Stands in for arXiv and Hugging Face: until `arm`ed every request gets 404 (a failing feed, which
 * the bot records and moves on from); then each category's RSS path serves its feed once with an ETag and answers
 * the bot's conditional requests with 304, as arXiv does between daily batches.
 */
export async function startFeedServer(): Promise<{
  base: string;
  arm(xmlByCategory: Record<string, string>): void;
  served: () => number;
  close(): Promise<void>;
}> {
  let feeds: Record<string, string> | undefined;
  let served = 0;
  const server: Server = createServer((req, res) => {
    const xml = req.url?.startsWith('/rss/') ? feeds?.[req.url.slice('/rss/'.length)] : undefined;
    if (!xml) return void res.writeHead(404).end();
    if (req.headers['if-none-match'] === '"bench-1"') return void res.writeHead(304).end();
    served++;
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag: '"bench-1"' }).end(xml);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    arm: (x) => (feeds = x),
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on yet (the bot's metrics endpoint). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

async function stat(pid: number | string): Promise<string[] | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The command name (field 2) may hold spaces: split after its closing parenthesis.
  return text?.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system) a process has used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  const f = await stat(pid);
  return f ? (Number(f[11]) + Number(f[12])) / TICKS : NaN;
}

/** CPU seconds of a Postgres server so far: the postmaster, its live backends, and the backends that have exited. */
export async function postgresCpuSeconds(dataDir: string): Promise<number> {
  const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const main = await stat(pid);
  if (!main) return NaN;
  let ticks = Number(main[11]) + Number(main[12]) + Number(main[13]) + Number(main[14]);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = await stat(entry);
    if (f && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS;
}
