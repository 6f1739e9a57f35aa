import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Db } from './client.ts';

/**
 * Named from the package root: this module sits one folder below it, like every file of the compiled
 * bundle (dist/), so the same path works run from source and compiled (src/services/package-files.ts finds the root by its package.json instead).
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** Applies the committed drizzle-kit migrations; safe to run on every start (already-applied ones are skipped). */
export async function runMigrations(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}
