import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { DRIVER_DIR, isPatched, patchSource } from '../../db/postgres-patch.ts';
import { createTestDb } from '../helpers/db.ts';

describe('the postgres.js connection guard (postinstall)', () => {
  it('is applied to the installed driver, and applies once', () => {
    for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
      const source = readFileSync(path.join(DRIVER_DIR, file), 'utf8');
      expect(isPatched(source), `${file}: run npm install (its postinstall applies db/postgres-patch.ts)`).toBe(true);
      expect(patchSource(source)).toBe(source);
    }
  });

  it('turns a query on a connection whose backend died into a rejection, not a crash, and the pool recovers', async () => {
    const t = await createTestDb();
    const sql = postgres(t.url, { max: 1, onnotice: () => {} });
    afterAll(() => sql.end({ timeout: 1 }));
    // A transaction whose backend is terminated half-way: ROLLBACK is then sent on a closed connection.
    const tx = sql.begin(async (q) => {
      const [row] = await q<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await t.sql`select pg_terminate_backend(${row!.pid})`;
      await q`select 1`;
    });
    await expect(tx).rejects.toMatchObject({ code: expect.stringMatching(/CONNECTION_CLOSED|57P01/) });
    // Without the fix the process died here (an uncaught TypeError from a setImmediate), or the next
    // query got the dead backend's error and the one after it never returned.
    for (let i = 0; i < 3; i++) expect((await sql<{ ok: number }[]>`select 1 as ok`)[0]!.ok).toBe(1);
  });
});
