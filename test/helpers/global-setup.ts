import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../db/client.ts';
import { startEmbeddedPostgres } from '../../db/embedded.ts';
import { runMigrations } from '../../db/migrate.ts';
import { importSeeds } from '../../seeds/import.ts';

export const TEMPLATE_DB = 'template_grpo';
/** The template with the seed corpus imported once, for the test files that need the real corpus. */
export const SEEDED_TEMPLATE_DB = 'template_grpo_seeded';
/** The clock of that import: every seeded test database says it was imported then. */
export const SEEDED_AT = new Date('2026-11-21T12:00:00Z');

/**
 * One real Postgres server per test run, with a migrated template database, and a fresh build of the CLI.
 * Each test file clones the template (`CREATE DATABASE ... TEMPLATE`, ~50 ms): see test/helpers/db.ts.
 */
export default async function setup(project: TestProject) {
  // Tests run the CLI as users do (bin/grpo-digest runs the compiled dist/): build it from the code under test.
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: 'inherit',
  });
  const parent = await mkdtemp(path.join(tmpdir(), 'grpo-test-'));
  await chmod(parent, 0o755); // the postgres OS user must traverse it when tests run as root
  const server = await startEmbeddedPostgres({ dir: path.join(parent, 'pg'), persistent: false, fast: true });
  await server.createDatabase(TEMPLATE_DB);
  const handle = createDb(server.url(TEMPLATE_DB), { max: 1 });
  await runMigrations(handle.db);
  await handle.close();
  // The seed import takes seconds (parsing, repairing the Chinese notes); done once here, not in every file.
  await server.createDatabase(SEEDED_TEMPLATE_DB, TEMPLATE_DB);
  const seeded = createDb(server.url(SEEDED_TEMPLATE_DB), { max: 1 });
  await importSeeds({ db: seeded.db, now: () => SEEDED_AT });
  await seeded.close();
  project.provide('pgAdminUrl', server.url('postgres'));
  project.provide('pgTemplate', TEMPLATE_DB);
  project.provide('pgSeededTemplate', SEEDED_TEMPLATE_DB);
  return async () => {
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    pgSeededTemplate: string;
  }
}
