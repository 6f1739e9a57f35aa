import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../db/client.ts';
import { startEmbeddedPostgres } from '../../db/embedded.ts';
import { runMigrations } from '../../db/migrate.ts';

export const TEMPLATE_DB = 'template_grpo';

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
  project.provide('pgAdminUrl', server.url('postgres'));
  project.provide('pgTemplate', TEMPLATE_DB);
  return async () => {
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}
