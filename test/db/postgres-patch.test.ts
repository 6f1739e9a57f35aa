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
      const [{ pid }] = await q<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await t.sql`select pg_terminate_backend(${pid})`;
      await q`select 1`;
    });
    await expect(tx).rejects.toMatchObject({ code: expect.stringMatching(/CONNECTION_CLOSED|57P01/) });
    // Without the guard the process died here (an uncaught TypeError from a setImmediate), or the next
    // connection never finished starting up. The driver may hand the terminated backend's last error
    // to the next query once; after that the pool answers.
    const answers: unknown[] = [];
    for (let i = 0; i < 5 && answers.at(-1) !== 1; i++) {
      answers.push(await sql<{ ok: number }[]>`select 1 as ok`.then((r) => r[0]!.ok, (e: { code?: string }) => e.code));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(answers.at(-1)).toBe(1);
    expect(answers.slice(0, -1).every((a) => a === '57P01' || a === 'CONNECTION_CLOSED')).toBe(true);
  });
});
