import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, inject } from 'vitest';
import { createDb, type DbHandle } from '../../db/client.ts';

/** Connection string of a database on the test server (the admin URL with another database name). */
export function testDbUrl(name: string): string {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database cloned from the migrated template (`seeded`: the template with the seed corpus
 * imported, test/helpers/global-setup.ts), closed when the file's tests end.
 * Call it in `beforeAll` (or at the top of a describe) of each test file that needs one.
 */
export async function createTestDb(opts: { seeded?: boolean } = {}): Promise<DbHandle & { url: string; name: string }> {
  const template = inject(opts.seeded ? 'pgSeededTemplate' : 'pgTemplate');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  try {
    // Cloning fails while another session is connected to the template; nobody stays connected, so retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (err) {
        if (attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 50 + attempt * 25));
      }
    }
  } finally {
    await admin.end();
  }
  const url = testDbUrl(name);
  const handle = createDb(url);
  afterAll(() => handle.close());
  return { ...handle, url, name };
}
