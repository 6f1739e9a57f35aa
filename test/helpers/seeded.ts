import { beforeAll } from 'vitest';
import pino from 'pino';
import type { CommandDeps } from '../../src/core/command.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createTestDb } from './db.ts';
import { SEEDED_AT } from './global-setup.ts';

export type SeededDb = Awaited<ReturnType<typeof createTestDb>> & { deps: CommandDeps };

/** A fresh test database with the real seed corpus imported (cloned from the seeded template), and command deps over it. */
export function useSeededDb(): () => SeededDb {
  let t: SeededDb | undefined;
  beforeAll(async () => {
    // A clone of the template the global setup imported the seeds into (at SEEDED_AT).
    const db = await createTestDb({ seeded: true });
    const deps: CommandDeps = buildDeps({
      db: db.db,
      sql: db.sql,
      config: loadConfig({ DATABASE_URL: db.url }),
      log: pino({ level: 'silent' }),
      now: () => SEEDED_AT,
    });
    t = { ...db, deps };
  }, 120_000);
  return () => {
    if (!t) throw new Error('useSeededDb: database not ready (call it at the top of a describe)');
    return t;
  };
}
