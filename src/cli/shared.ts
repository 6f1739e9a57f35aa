import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { describeUrl } from '../../db/open.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/log.ts';
import { createApp, type App, type Narrator } from '../app.ts';
import { parseDay } from '../core/calendar.ts';
import { progressBar } from '../core/progress.ts';
import { replaceUnsafeChars, stripControlChars } from '../core/reply.ts';
import { UserFacingError } from '../core/errors.ts';
import { lookupPaper } from '../services/search/lookup.ts';
import type { Db } from '../../db/client.ts';
import type { Paper } from '../../db/schema.ts';
import { runJob, type Job, type JobDeps, type JobOutcome } from '../../jobs/index.ts';

/** First-start narration on stderr (stdout stays clean for --json and pipes); the bar only on a terminal. */
export const STDERR_NARRATOR: Narrator = {
  say: (line) => void process.stderr.write(`${line}\n`),
  bar: progressBar,
};

/** The paper a CLI argument names (arXiv id, URL, title or family name), or what to try instead, in the shell's words. */
export async function paperArg(db: Db, ref: string): Promise<Paper> {
  const found = await lookupPaper(db, ref);
  if (found.paper) return found.paper;
  if (found.reason === 'malformed-id')
    throw new UserFacingError(`"${ref}" is not a valid arXiv id (example: 2507.18071)`);
  if (found.reason === 'family-not-stored')
    throw new UserFacingError(
      `${found.family}'s defining paper (arXiv ${found.id}) is not in the corpus yet; try: grpo-digest search ${found.family}`,
    );
  throw new UserFacingError(`"${ref}" is not in the corpus; try: grpo-digest search`);
}

/** A command that ran but did not do its job (every feed failed): its message, and exit code 1. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
}

/** The CLI's logger: LOG_LEVEL when set, else `fallback`. */
export function cliLogger(fallback = 'error') {
  let level: string | undefined;
  try {
    level = loadConfig(process.env).logLevel;
  } catch {
    level = undefined;
  }
  return createLogger(level ?? fallback);
}

/** The database a command uses, named for a message: DATABASE_URL (without its password) or the embedded one's folder. */
export function databaseName(): string {
  try {
    const config = loadConfig(process.env);
    return config.databaseUrl
      ? `DATABASE_URL (${describeUrl(config.databaseUrl)})`
      : `the embedded Postgres in ${path.join(config.dataDir, 'pg')}`;
  } catch {
    return 'the database';
  }
}

/**
 * Opens the app for one CLI command and always closes it (stopping the embedded Postgres it started,
 * or took over from a grpo-digest that exited meanwhile). `session`: the console, which stays open.
 */
export async function withApp<T>(
  fn: (app: App) => Promise<T>,
  opts: { seedIfEmpty?: boolean; quiet?: boolean; session?: boolean } = {},
): Promise<T> {
  const config = loadConfig(process.env);
  // Quiet commands (the console, poll, fetch-text ...) print what they did; their log adds only
  // warnings, one short line each. LOG_LEVEL set: the full structured log, as the bot writes it.
  const log =
    config.logLevel === undefined && opts.quiet
      ? createLogger('warn', { oneLine: (line) => process.stderr.write(`grpo-digest: ${stripControlChars(line)}\n`) })
      : createLogger(config.logLevel ?? 'info');
  const app = await createApp(config, {
    log,
    seedIfEmpty: opts.seedIfEmpty,
    narrator: STDERR_NARRATOR,
    session: opts.session,
    onDatabaseLost: (message) => void exitLost(message, app),
  });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/** The database this command shared is gone for good: one line, the app closed, exit 1. */
export async function exitLost(message: string, app: { close(): Promise<void> }): Promise<never> {
  process.stderr.write(`grpo-digest: ${stripControlChars(message)}\n`);
  await app.close().catch(() => {});
  process.exit(1);
}

export function positiveInt(max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    return n;
  };
}

/** A calendar date option (YYYY-MM-DD) that exists. */
export function isoDate(value: string): string {
  if (parseDay(value) !== value) throw new InvalidArgumentError('must be a date like 2026-11-20');
  return value;
}

/** The reader of stdout went away (`grpo-digest export | head -c 100`): the command stops quietly and the app still closes. */
export class OutputClosed extends Error {
  override name = 'OutputClosed';
}

let outputClosed = false;

/**
 * Turns a closed stdout (EPIPE) into `OutputClosed` at the next print instead of an uncaught error
 * that would kill the process with a stack trace and leave the embedded Postgres running.
 */
export function watchStdout(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') outputClosed = true;
    else throw err;
  });
}

/** One line to stdout, as it is (`print` and `printJson` make it safe for a terminal first). */
export const writeLine = (s: string): void => {
  if (outputClosed) throw new OutputClosed('stdout closed');
  process.stdout.write(`${s}\n`);
};

/** Text for the terminal: control characters (escape sequences a feed could carry) never reach it. */
export const print = (s: string): void => writeLine(stripControlChars(s));

/**
 * JSON whose strings say exactly what is stored, yet never put a control, bidi or zero-width character on
 * the terminal: JSON.stringify escapes C0 controls, and this escapes the rest the same way (`\u009b`).
 */
export function safeJson(v: unknown, indent?: number): string {
  return replaceUnsafeChars(
    JSON.stringify(v, null, indent) ?? 'null',
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
export const printJson = (v: unknown): void => writeLine(safeJson(v, 2));

/** Ctrl-C during a long run aborts the requests in flight; the job records what it finished. */
export function interruptible(): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  return { signal: controller.signal, done: () => process.off('SIGINT', onSignal) };
}

/** What a job run from the shell is given: Ctrl-C's signal, and the progress bar's update (none with --json). */
export interface ShellRun {
  signal: AbortSignal;
  onProgress: (done: number, total: number) => void;
}

/**
 * Runs a job from the shell as the scheduler would (its lock, its run record), with Ctrl-C aborting it
 * and a progress bar named `label` on a terminal unless `json` (stdout then carries only the result).
 */
export async function runFromShell(
  deps: JobDeps,
  opts: { label: string; json?: boolean },
  job: (run: ShellRun) => Job,
): Promise<JobOutcome> {
  const stop = interruptible();
  const bar = opts.json ? undefined : progressBar(opts.label);
  try {
    return await runJob(job({ signal: stop.signal, onProgress: (done, total) => bar?.update(done, total) }), deps);
  } finally {
    bar?.stop();
    stop.done();
  }
}
