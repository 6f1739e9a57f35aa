import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.ts';

const BIN = path.join(ROOT, 'bin/grpo-digest');
const STACK = /\n\s+at .+:\d+:\d+/;

function start(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(BIN, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
  });
}

/** Resolves with everything the stream said once it has said `text`. */
function waitFor(child: ChildProcessWithoutNullStreams, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for "${text}"; saw: ${seen.slice(-500)}`)),
      90_000,
    );
    child.stdout.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

/** The exit code, once the process has ended and its output has been read. */
const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (at most 20 s) for a killed process to be gone. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number((await readFile(file, 'utf8')).split('\n')[0]) : undefined;
}

describe('the embedded Postgres across processes', () => {
  let dataDir: string;
  const leftover: ChildProcessWithoutNullStreams[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'grpo-life-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    for (const c of leftover) if (c.exitCode === null) c.kill('SIGKILL');
    const pid = await postmasterPid(dataDir);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGINT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets the CLI run while the bot runs, recovers a server a SIGKILLed bot left, and ends quietly on EPIPE', async () => {
    const env = { DATA_DIR: dataDir };
    // The "bot": a console that stays open, on the embedded defaults.
    const bot = start(['console'], env);
    leftover.push(bot);
    let botErr = '';
    bot.stderr.on('data', (c: Buffer) => (botErr += c.toString()));
    const ready = waitFor(bot, 'grpo-digest status');
    bot.stdin.write('/status\n');
    await ready;
    expect(botErr).toContain('First start: creating the embedded Postgres database');

    // Bug 6: a second process uses the running server instead of refusing.
    const search = await cli(['search', 'group sequence policy', '--limit', '1'], env);
    expect(search.stderr).not.toMatch(STACK);
    expect(search.stderr).toMatch(
      /Using the database of the grpo-digest already running on this folder \(process \d+\)/,
    );
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('Group Sequence Policy Optimization');
    // ... and leaves it running for the bot.
    const card = waitFor(bot, '群组序列策略优化');
    bot.stdin.write('/paper show id:2507.18071\n');
    await card;

    // Bug 7: a SIGKILLed bot leaves its Postgres behind (parent PID 1) ... The bot is node under tsx's
    // launcher: both are killed, as `kill -9` of the whole bot would.
    const orphan = (await postmasterPid(dataDir))!;
    const owner = (JSON.parse(await readFile(path.join(dataDir, 'pg.owner'), 'utf8')) as { pid: number }).pid;
    process.kill(owner, 'SIGKILL');
    bot.kill('SIGKILL');
    await exited(bot);
    expect(await gone(owner)).toBe(true);
    expect(isAlive(orphan)).toBe(true);

    // ... which the next start stops and replaces; and `export | head -c 100` ends quietly, stopping its server.
    const exporter = start(['export'], env);
    let exportErr = '';
    exporter.stderr.on('data', (c: Buffer) => (exportErr += c.toString()));
    const firstBytes = await new Promise<string>((resolve) =>
      exporter.stdout.once('data', (c: Buffer) => resolve(c.toString().slice(0, 100))),
    );
    exporter.stdout.destroy(); // the reader goes away, as head does after 100 bytes
    const code = await exited(exporter);
    expect(firstBytes).toMatch(/^\{"id":/);
    expect(exportErr).toMatch(
      /Stopping the embedded Postgres \(process \d+\) that a grpo-digest which ended without closing left running/,
    );
    expect(exportErr).not.toMatch(STACK);
    expect(code).toBe(0);
    expect(await gone(orphan)).toBe(true);
    expect(await postmasterPid(dataDir)).toBeUndefined();
    expect(existsSync(path.join(dataDir, 'pg.owner'))).toBe(false);
  }, 240_000);

  it('lets two first starts at once on an empty data dir both work: the second waits for the first to create it', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'grpo-twice-'));
    await chmod(fresh, 0o755);
    try {
      const [a, b] = await Promise.all([
        cli(['search', 'sequence-level clipping', '--limit', '1'], { DATA_DIR: fresh }),
        cli(['search', 'sequence-level clipping', '--limit', '1'], { DATA_DIR: fresh }),
      ]);
      for (const r of [a, b]) {
        expect(r.stderr).not.toMatch(/set DATA_DIR to a folder you can write/);
        expect({ code: r.code, stderr: r.code ? r.stderr.slice(-400) : '' }).toEqual({ code: 0, stderr: '' });
      }
    } finally {
      const pid = await postmasterPid(fresh);
      if (pid && isAlive(pid)) process.kill(pid, 'SIGINT');
      await rm(fresh, { recursive: true, force: true });
    }
  }, 180_000);
});
