import { beforeAll } from 'vitest';
import pino from 'pino';
import type { CommandDeps } from '../../src/core/command.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { importSeeds } from '../../seeds/import.ts';
import { createTestDb } from './db.ts';

export type SeededDb = Awaited<ReturnType<typeof createTestDb>> & { deps: CommandDeps };

/** A fresh test database with the real seed corpus imported, and command deps over it. */
export function useSeededDb(): () => SeededDb {
  let t: SeededDb | undefined;
  beforeAll(async () => {
    const db = await createTestDb();
    await importSeeds({ db: db.db, now: () => new Date('2026-11-21T12:00:00Z') });
    const deps: CommandDeps = buildDeps({
      db: db.db,
      sql: db.sql,
      config: loadConfig({ DATABASE_URL: db.url }),
      log: pino({ level: 'silent' }),
      now: () => new Date('2026-11-21T12:00:00Z'),
    });
    t = { ...db, deps };
  }, 120_000);
  return () => {
    if (!t) throw new Error('useSeededDb: database not ready (call it at the top of a describe)');
    return t;
  };
}
