import { InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { createLogger } from '../log.ts';
import { createApp, type App } from '../app.ts';

/** Opens the app for one CLI command and always closes it (stopping the embedded Postgres). */
export async function withApp<T>(fn: (app: App) => Promise<T>, opts: { seedIfEmpty?: boolean; quiet?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  const log = createLogger(opts.quiet ? 'warn' : config.logLevel);
  const app = await createApp(config, { log, seedIfEmpty: opts.seedIfEmpty });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

export function positiveInt(max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    return n;
  };
}

/** A calendar date option (YYYY-MM-DD) that exists. */
export function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError('must be a date like 2026-11-20');
  }
  return value;
}

export const print = (s: string): void => {
  process.stdout.write(`${s}\n`);
};
export const printJson = (v: unknown): void => print(JSON.stringify(v, null, 2));

/** Ctrl-C during a long run aborts the requests in flight; the job records what it finished. */
export function interruptible(): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  return { signal: controller.signal, done: () => process.off('SIGINT', onSignal) };
}
