import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import postgres from 'postgres';
import pino from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { notes, papers } from '../../db/schema.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { testDbUrl } from '../helpers/db.ts';

describe('two first starts at once', { timeout: 120_000 }, () => {
  it('migrate and import the seed corpus once, on an empty shared database, and both start', async () => {
    // An empty database, not the migrated template: both starts must create the extensions and tables.
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    await admin.end();
    const config = loadConfig({ DATABASE_URL: testDbUrl(name) });
    const starts = await Promise.allSettled([0, 1].map(() => createApp(config, { log: pino({ level: 'silent' }) })));
    const apps = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual([
        'started',
        'started',
      ]);
      const [db] = apps.map((a) => a.deps.db);
      expect((await db!.select({ n: count() }).from(papers))[0]!.n).toBe(238);
      expect((await db!.select({ n: count() }).from(notes))[0]!.n).toBe(130);
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
