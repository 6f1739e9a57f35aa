import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { cli, ROOT } from '../helpers/cli.ts';
import { rssFeed } from '../helpers/feed-builders.ts';
import { startFeedServer } from '../helpers/feed-server.ts';

const BIN = path.join(ROOT, 'bin/grpo-digest');
const SHOW = '/paper show id:2507.18071';
const TITLE = 'Group Sequence Policy Optimization';
const DOWN = 'cannot reach its database';

/** A console as a user runs it, piped: one command per line, LOG_LEVEL unset (the quiet, one-line log). */
interface Console {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  code: Promise<number | null>;
}

function startConsole(dataDir: string, all: Console[]): Console {
  const child = spawn(BIN, ['console'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  const running = { child, out: () => out, err: () => err, code };
  all.push(running);
  return running;
}

/**
 * Types `line` until the answer contains `want` (the database may be down for a moment while the console
 * takes it over); fails after two minutes, or if the console ends.
 */
async function answers(c: Console, line: string, want: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const from = c.out().length;
    c.child.stdin.write(`${line}\n`);
    for (let i = 0; i < 100 && Date.now() < deadline; i++) {
      if (c.out().slice(from).includes(want)) return;
      if (c.child.exitCode !== null) throw new Error(`the console ended (${c.child.exitCode}): ${c.err().slice(-500)}`);
      if (c.out().slice(from).includes(DOWN)) break; // answered: the database is down; ask again
      await sleep(100);
    }
    await sleep(500);
  }
  throw new Error(`no answer with "${want}"; stdout: ${c.out().slice(-300)}; stderr: ${c.err().slice(-500)}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
  return !isAlive(pid);
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number((await readFile(file, 'utf8')).split('\n')[0]) : undefined;
}

const ownerPid = async (dataDir: string) =>
  (JSON.parse(await readFile(path.join(dataDir, 'pg.owner'), 'utf8')) as { pid: number }).pid;

/** The pid in the owner file once it names a process that `is` accepts (a takeover takes a moment); fails after a minute. */
async function ownedBy(dataDir: string, is: (pid: number) => boolean): Promise<number | undefined> {
  let pid: number | undefined;
  for (let i = 0; i < 600; i++) {
    pid = await ownerPid(dataDir).catch(() => undefined);
    if (pid !== undefined && is(pid)) return pid;
    await sleep(100);
  }
  throw new Error(`the owner file names ${pid ?? 'nobody'}`);
}

describe('a console using the database of another grpo-digest', () => {
  let dataDir: string;
  const consoles: Console[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'grpo-takeover-'));
    await chmod(dataDir, 0o755); // the postgres OS user must traverse it when tests run as root
  });
  afterAll(async () => {
    for (const c of consoles) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    const pid = await postmasterPid(dataDir);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGINT');
    if (pid) await gone(pid);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes the database over when the grpo-digest that ran it exits or is killed, and stops it when it exits itself', async () => {
    const first = startConsole(dataDir, consoles);
    await answers(first, SHOW, TITLE);
    const second = startConsole(dataDir, consoles);
    await answers(second, SHOW, TITLE);
    expect(second.err()).toMatch(/Using the database of the grpo-digest already running on this folder/);

    // The first exits (Ctrl-D); the second keeps answering, on the server it now runs itself.
    first.child.stdin.end();
    expect(await first.code).toBe(0);
    await answers(second, SHOW, TITLE);
    expect(await ownerPid(dataDir)).toBe(second.child.pid);
    // What the second said about it: one short line on stderr, no log records, no SQL.
    const said = second.err().split('\n').filter(Boolean);
    expect(said.filter((l) => /stopped/.test(l))).toEqual([
      'grpo-digest: warning: the grpo-digest that ran the embedded Postgres stopped; this one runs it now',
    ]);
    const logOrSql = /"level":|"msg":|\bselect .* from "|\binsert into "/i;
    expect(second.err()).not.toMatch(logOrSql);
    expect(second.out()).not.toMatch(logOrSql);

    // A third attaches to the second's server; the second exits and a fourth starts at once: the server
    // moves to a new port (the third takes it over, or attaches to the fourth's), and both keep answering.
    const third = startConsole(dataDir, consoles);
    await answers(third, SHOW, TITLE);
    const before = await postmasterPid(dataDir);
    second.child.stdin.end();
    const fourth = startConsole(dataDir, consoles);
    expect(await second.code).toBe(0);
    await answers(third, SHOW, TITLE);
    await answers(fourth, SHOW, TITLE);
    expect(await postmasterPid(dataDir)).not.toBe(before);

    // Whichever runs the server is killed (SIGKILL: no stop, its owner file left with a dead pid): the
    // other stops the server it left behind, starts it afresh and keeps answering.
    const pids = [third.child.pid, fourth.child.pid];
    const owner = await ownedBy(dataDir, (pid) => pids.includes(pid));
    const [killed, survivor] = owner === third.child.pid ? [third, fourth] : [fourth, third];
    const orphan = (await postmasterPid(dataDir))!;
    killed.child.kill('SIGKILL');
    await killed.code;
    // The orphaned server may answer a moment longer; then the survivor stops it and runs its own.
    expect(await ownedBy(dataDir, (pid) => pid === survivor.child.pid)).toBe(survivor.child.pid);
    await answers(survivor, SHOW, TITLE);
    expect(await gone(orphan)).toBe(true);
    expect(survivor.err()).toMatch(/the grpo-digest that ran the embedded Postgres stopped; this one runs it now/);
    expect(survivor.err()).not.toMatch(logOrSql);

    // The survivor exits: it stops the server it runs; no Postgres is left behind.
    const last = (await postmasterPid(dataDir))!;
    survivor.child.stdin.end();
    expect(await survivor.code).toBe(0);
    expect(await gone(last)).toBe(true);
    expect(await postmasterPid(dataDir)).toBeUndefined();
    expect(existsSync(path.join(dataDir, 'pg.owner'))).toBe(false);
  }, 480_000);

  it('leaves no Postgres running when a CLI command that started it ends after losing it', async () => {
    const feeds = await startFeedServer();
    let killed: number | undefined;
    feeds.route((url) => {
      if (!url.pathname.startsWith('/rss/')) return { body: '[]' };
      // The database dies while the feed is read; the answer comes as the command's server is restarted.
      const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (killed === undefined) {
        killed = pid;
        process.kill(pid, 'SIGKILL');
      }
      const body = rssFeed('cs.LG', '2026-11-16', [{ id: '2611.70001' }]);
      return {
        stream: Readable.from(
          (async function* () {
            await sleep(1_500);
            yield body;
          })(),
        ),
      };
    });
    const r = await cli(['poll', '--source', 'arxiv-rss'], {
      DATA_DIR: dataDir,
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    });
    expect(killed).toBeDefined();
    // Either the restarted server took the feed (exit 0), or the command says it lost the database in one line (exit 1).
    if (r.code !== 0) expect(r.stderr).toMatch(/^grpo-digest: lost the database, the embedded Postgres in .+\n$/m);
    expect([0, 1]).toContain(r.code);
    const left = await postmasterPid(dataDir);
    if (left !== undefined) expect(await gone(left)).toBe(true);
    expect(existsSync(path.join(dataDir, 'pg.owner'))).toBe(false);
  }, 180_000);

  it('ends with one line saying what to do when it cannot take the database over', async () => {
    const first = startConsole(dataDir, consoles);
    await answers(first, SHOW, TITLE);
    const second = startConsole(dataDir, consoles);
    await answers(second, SHOW, TITLE);
    // A running server never reads PG_VERSION again; any new start on this data refuses it.
    await writeFile(path.join(dataDir, 'pg', 'PG_VERSION'), '9\n');
    const server = (await postmasterPid(dataDir))!;
    first.child.stdin.end();
    expect(await first.code).toBe(0);
    expect(await second.code).toBe(1);
    const said = second.err().split('\n').filter(Boolean);
    expect(said.at(-1)).toMatch(
      /^grpo-digest: The grpo-digest that ran the database in .+ stopped, and this one could not start it \(.+\)\. Start grpo-digest again\.$/,
    );
    expect(said.filter((l) => !l.startsWith('Using the database'))).toHaveLength(1);
    expect(await gone(server)).toBe(true);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  }, 240_000);
});
