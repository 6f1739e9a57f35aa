import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Db } from './client.ts';

/**
 * Named from the package root: this module sits one folder below it, like every file of the compiled
 * bundle (dist/), so the same path works run from source and compiled (src/services/package-files.ts finds the root by its package.json instead).
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * Applies the committed drizzle-kit migrations; safe to run on every start (already-applied ones are
 * skipped). Returns how many it applied.
 */
export async function runMigrations(db: Db): Promise<number> {
  const before = await appliedCount(db);
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return (await appliedCount(db)) - before;
}

async function appliedCount(db: Db): Promise<number> {
  const [table] = await db.execute<{ t: string | null }>(
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`,
  );
  if (!table?.t) return 0;
  const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}
