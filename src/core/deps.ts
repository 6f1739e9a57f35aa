import type { Sql } from 'postgres';
import type { Db } from '../../db/client.ts';
import type { Config } from './config.ts';
import type { Notifier } from './delivery/notifier.ts';
import type { Poster } from './delivery/poster.ts';
import type { Llm } from './llm/port.ts';
import type { Logger } from './log.ts';

/**
 * Everything the app's parts may use, built once by the composition root (src/app.ts `buildDeps`).
 * Commands and jobs receive views of it (`CommandDeps`, `JobDeps`); nothing builds its own client,
 * logger or clock.
 */
export interface AppDeps {
  db: Db;
  /** The raw driver, for session-level advisory locks on a reserved connection (jobs only). */
  sql: Sql;
  config: Config;
  log: Logger;
  /** The clock: every "now" comes from here, so tests and replays control time. */
  now: () => Date;
  /** The language model, or null without ANTHROPIC_API_KEY (then only extractive fallbacks exist). */
  llm: Llm | null;
  /** Where digests and announcements are posted; only on a platform that can post (Discord). */
  poster?: Poster;
  /** Direct messages to users; only on Discord. */
  notifier?: Notifier;
  /** When each scheduled job runs next, for `/status`; only where a scheduler runs. */
  nextRuns?: () => Record<string, Date | null>;
  /** Random numbers in [0, 1) (`/paper random`); defaults to Math.random, tests pass a fixed sequence. */
  random?: () => number;
}
