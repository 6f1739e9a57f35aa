import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { runJob, runRetryingOutages, runWithFollowUp, type Job, type JobDeps } from '../../jobs/index.ts';
import { lastJobRuns, startJobRun } from '../../db/queries/job-runs.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
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
    const job: Job = {
      name: 'broken',
      schedule: '* * * * *',
      run: async () => {
        throw new Error('feed host down');
      },
    };
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
    const job: Job = {
      name: 'poll',
      schedule: '* * * * *',
      run: async () => {
        runs++;
        started();
        await gate;
        return { runs };
      },
    };
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
    const summarise: Job = {
      name: 'summarise',
      schedule: '* * * * *',
      run: async () => {
        ran.push('summarise');
        return {};
      },
    };
    const poll: Job = {
      name: 'poll-ok',
      schedule: '* * * * *',
      then: summarise,
      run: async () => {
        ran.push('poll');
        return {};
      },
    };
    const broken: Job = {
      ...poll,
      name: 'poll-broken',
      run: async () => {
        ran.push('broken');
        throw new Error('down');
      },
    };
    expect(await runWithFollowUp(poll, deps)).toMatchObject({ status: 'ok' });
    expect(await runWithFollowUp(broken, deps)).toMatchObject({ status: 'failed' });
    expect(ran).toEqual(['poll', 'summarise', 'broken']);
    expect(await lastJobRuns(deps.db, 'summarise')).toHaveLength(1);
  });

  it('marks a run left running by a killed process as interrupted, at the next run under its lock', async () => {
    // A process that died mid-run: its row says `running` and nothing will ever finish it.
    await startJobRun(deps.db, 'poll-feeds', 'poll', new Date('2026-11-20T06:15:00Z'));
    const backfill: Job = { name: 'backfill', lock: 'poll', schedule: '* * * * *', run: async () => ({}) };
    expect(await runJob(backfill, deps)).toMatchObject({ status: 'ok' });
    const [killed] = await lastJobRuns(deps.db, 'poll-feeds');
    expect(killed).toMatchObject({ status: 'interrupted', error: expect.stringContaining('process stopped') });
    expect(killed!.finishedAt).toBeInstanceOf(Date);
  });

  it('returns a failure naming the database when it cannot be reached, without throwing', async () => {
    const gone = createDb('postgres://grpo:x@127.0.0.1:1/nowhere');
    const job: Job = { name: 'unreachable', schedule: '* * * * *', run: async () => ({}) };
    const outcome = await runJob(job, { ...deps, db: gone.db, sql: gone.sql });
    expect(outcome).toMatchObject({
      status: 'failed',
      databaseUnavailable: true,
      error: 'database unavailable (ECONNREFUSED)',
    });
    await gone.close();
  });

  it('runs a job again after an outage, with pauses, until the database is back', async () => {
    let calls = 0;
    const flaky: Job = {
      name: 'flaky',
      schedule: '* * * * *',
      run: async () => {
        if (++calls < 3)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return { calls };
      },
    };
    expect(await runRetryingOutages(flaky, deps, { delaysMs: [1, 1, 1] })).toEqual({
      status: 'ok',
      stats: { calls: 3 },
    });
    const broken: Job = {
      name: 'not-an-outage',
      schedule: '* * * * *',
      run: async () => {
        calls++;
        throw new Error('a bug');
      },
    };
    calls = 0;
    expect(await runRetryingOutages(broken, deps, { delaysMs: [1, 1, 1] })).toMatchObject({
      status: 'failed',
      error: 'a bug',
    });
    expect(calls).toBe(1);
  });
});
