import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { runJob, runWithFollowUp, type Job, type JobDeps } from '../../jobs/index.ts';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../db/client.ts';
import { createTestDb } from '../helpers/db.ts';

describe('runJob', () => {
  let deps: JobDeps;
  let url: string;
  beforeAll(async () => {
    const t = await createTestDb();
    url = t.url;
    deps = buildDeps({ db: t.db, sql: t.sql, config: loadConfig({}), log: pino({ level: 'silent' }) });
  });

  it('records a successful run with its counts', async () => {
    const job: Job = { name: 'count', schedule: '* * * * *', run: async () => ({ fetched: 3, failed: 0 }) };
    expect(await runJob(job, deps)).toEqual({ status: 'ok', stats: { fetched: 3, failed: 0 } });
    const [run] = await lastJobRuns(deps.db, 'count');
    expect(run).toMatchObject({ status: 'ok', stats: { fetched: 3, failed: 0 } });
    expect(run!.finishedAt).toBeInstanceOf(Date);
  });

  it('records a failure without throwing', async () => {
    const job: Job = { name: 'broken', schedule: '* * * * *', run: async () => { throw new Error('feed host down'); } };
    expect(await runJob(job, deps)).toEqual({ status: 'failed', error: 'feed host down' });
    expect((await lastJobRuns(deps.db, 'broken'))[0]).toMatchObject({ status: 'failed', error: 'feed host down' });
  });

  it('lets only one of two replicas run the same job at once', async () => {
    // A second "replica": its own connection pool on the same database.
    const other = createDb(url);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const job: Job = { name: 'poll', schedule: '* * * * *', run: async () => { runs++; started(); await gate; return { runs }; } };
    const first = runJob(job, deps);
    await running; // the first replica holds the lock now
    const second = await runJob(job, { ...deps, db: other.db, sql: other.sql });
    release();
    expect(second.status).toBe('skipped');
    expect((await first).status).toBe('ok');
    expect(runs).toBe(1);
    await other.close();
  });

  it('runs a follow-up job only after a successful run', async () => {
    const ran: string[] = [];
    const summarise: Job = { name: 'summarise', schedule: '* * * * *', run: async () => { ran.push('summarise'); return {}; } };
    const poll: Job = { name: 'poll-ok', schedule: '* * * * *', then: summarise, run: async () => { ran.push('poll'); return {}; } };
    const broken: Job = { ...poll, name: 'poll-broken', run: async () => { ran.push('broken'); throw new Error('down'); } };
    expect(await runWithFollowUp(poll, deps)).toMatchObject({ status: 'ok' });
    expect(await runWithFollowUp(broken, deps)).toMatchObject({ status: 'failed' });
    expect(ran).toEqual(['poll', 'summarise', 'broken']);
    expect((await lastJobRuns(deps.db, 'summarise'))).toHaveLength(1);
  });
});
