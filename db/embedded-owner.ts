/**
 * Who runs the embedded Postgres of a data folder, as the files beside it say: Postgres's own
 * `postmaster.pid` (the server's pid and port), `<dir>.owner` (the grpo-digest that started it) and
 * `<dir>.creating` (a first start's initdb under way). Several grpo-digest processes share one folder
 * (the bot, a console, CLI commands); these files are how they find, attach to and take over its server.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * `<dir>.owner` holds the pid of the grpo-digest that started the server and its port. Written before
 * a start (a claim, so a second grpo-digest never takes a starting server for one left behind, and only
 * one of several takes over); removed after a stop; a SIGKILLed process leaves it behind with a dead pid.
 */
export const ownerFile = (dir: string) => `${dir}.owner`;

/** Claims the folder for this process's server on `port`: false when another process claimed it first (the file is created exclusively). */
export async function claimOwner(dir: string, port: number): Promise<boolean> {
  try {
    await writeFile(ownerFile(dir), JSON.stringify({ pid: process.pid, port }), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Whether a live process other than this one claims the folder (it may be starting its server). */
export function claimedByOther(dir: string): boolean {
  const pid = ownerOfSync(dir);
  return pid !== undefined && pid !== process.pid && isAlive(pid);
}

/** Removes this process's claim; a claim another process wrote since (it took over) stays. */
export async function releaseOwner(dir: string): Promise<void> {
  if ((await ownerOf(dir)) === process.pid) await rm(ownerFile(dir), { force: true });
}

/** Removes a claim whose process is gone (or this process's own). */
export async function dropDeadClaim(dir: string): Promise<void> {
  const pid = await ownerOf(dir);
  if (pid === undefined || pid === process.pid || !isAlive(pid)) await rm(ownerFile(dir), { force: true });
}

async function ownerOf(dir: string): Promise<number | undefined> {
  return pidIn(await readFile(ownerFile(dir), 'utf8').catch(() => undefined));
}

function ownerOfSync(dir: string): number | undefined {
  try {
    return pidIn(readFileSync(ownerFile(dir), 'utf8'));
  } catch {
    return undefined;
  }
}

function pidIn(claim: string | undefined): number | undefined {
  try {
    const pid = claim === undefined ? undefined : (JSON.parse(claim) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined; // a claim cut short (a crash while writing it): nobody's
  }
}

/** The postmaster that `<dir>/postmaster.pid` names, when that process is alive: its pid and port. */
function postmaster(dir: string): { pid: number; port: number } | undefined {
  let pidFile: string;
  try {
    pidFile = readFileSync(path.join(dir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const [pidLine, , , portLine] = pidFile.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined; // a stale pid file: Postgres starts over it
  return { pid, port: Number(portLine) };
}

/** Whether the folder's live postmaster is the one listening on `port` (not gone, not replaced by another on a new port). */
export function serverOn(dir: string, port: number): boolean {
  return postmaster(dir)?.port === port;
}

/**
 * The postmaster running on `dir`, if any, with its port and, when the grpo-digest that started it is
 * still alive (and is not this process), that process's pid.
 */
export async function runningServer(
  dir: string,
): Promise<{ pid: number; port: number; ownerPid?: number } | undefined> {
  const running = postmaster(dir);
  if (!running) return undefined;
  const pid = await ownerOf(dir);
  const ownerPid = pid !== undefined && pid !== process.pid && isAlive(pid) ? pid : undefined;
  return { ...running, ...(ownerPid !== undefined && { ownerPid }) };
}

/** A live process: signal 0 reaches it, and on Linux it is not a zombie waiting for an init that does not reap. */
export function isAlive(pid: number): boolean {
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

/** Where a first start records that it is creating the cluster in `dir` (beside it, as initdb wants `dir` empty). */
export const creatingFile = (dir: string) => `${dir}.creating`;

/** The live process, other than this one, that is creating the cluster in `dir`, if any. */
export function creatingBy(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(creatingFile(dir), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
