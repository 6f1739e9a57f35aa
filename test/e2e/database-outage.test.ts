import { readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq, like } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { channels, deliveries, papers } from '../../db/schema.ts';
import { runRetryingOutages } from '../../jobs/index.ts';
import { pollFeedsJob } from '../../jobs/poll-feeds.ts';
import { postDigestsJob } from '../../jobs/post-digests.ts';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/core/config.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { deliveryNonce } from '../../src/core/delivery/poster.ts';
import { DATABASE_DOWN } from '../../src/core/dispatch.ts';
import { createLogger } from '../../src/core/log.ts';
import { cli } from '../helpers/cli.ts';
import { startFakeChannels } from '../helpers/fake-channel.ts';
import { apiFeed, rssFeed } from '../helpers/feed-builders.ts';
import { startFeedServer, type FeedServer } from '../helpers/feed-server.ts';
import { httpPoster } from '../helpers/http-poster.ts';

/** Pauses between runs of a job the outage failed: short, so the test waits only for the restart. */
const RETRY = [300, 600, 1_200, 2_400, 4_800, 9_600];

/**
 * The app on its own embedded Postgres (not the shared test server: these tests kill it). The
 * server is killed with SIGKILL, as the OOM killer or an operator would, in the middle of a poll and
 * of a digest delivery; the app restarts it and the work completes once, with nothing lost or doubled.
 */
describe('a lost database', { timeout: 120_000 }, () => {
  let dataDir: string;
  let app: App;
  let config: Config;
  let feeds: FeedServer;
  let fake: Awaited<ReturnType<typeof startFakeChannels>>;
  const logs: string[] = [];
  let now = new Date('2026-11-16T06:15:00Z');

  const killPostgres = () => {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  };
  /** Waits (polling) until the database answers again. */
  const databaseBack = async () => {
    for (let i = 0; i < 300; i++) {
      if (
        await app.deps.sql`select 1`.then(
          () => true,
          () => false,
        )
      )
        return;
      await sleep(100);
    }
    throw new Error('the embedded Postgres did not come back');
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'grpo-outage-'));
    await chmod(dataDir, 0o755); // the postgres OS user must traverse it when tests run as root
    feeds = await startFeedServer();
    fake = await startFakeChannels();
    config = loadConfig({
      DATA_DIR: dataDir,
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_API_BASE: `${feeds.base}/api/query`,
      HF_API_BASE: `${feeds.base}/api`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    });
    const log = createLogger('info', { destination: { write: (line) => void logs.push(line) } });
    app = await createApp(config, { log, seedIfEmpty: false, watchMs: 100, now: () => now });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Connects to the embedded server with a password: 1, or the error code. */
  const attempt = async (pw: string) => {
    const port = Number(new URL(app.handle.embedded!.url('postgres')).port);
    const sql = postgres({
      host: '127.0.0.1',
      port,
      database: 'postgres',
      username: 'grpo',
      password: pw,
      max: 1,
      onnotice: () => {},
    });
    try {
      return (await sql`select 1 as ok`)[0]!.ok as number;
    } catch (err) {
      return (err as { code?: string }).code;
    } finally {
      await sql.end();
    }
  };

  it('keeps a password of its own in a file only its owner can read; the old fixed one is refused', async () => {
    const file = path.join(dataDir, 'pg.password');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(await attempt('grpo-local')).toBe('28P01');
    expect(await attempt(password)).toBe(1);
  });

  it('answers that the database is unavailable while it is down, restarts it, and answers again', async () => {
    killPostgres();
    expect(await answerLine('/paper latest', app.deps)).toContain(DATABASE_DOWN);
    await databaseBack();
    expect(await answerLine('/paper latest', app.deps)).not.toContain(DATABASE_DOWN);
    const said = logs.map((l) => JSON.parse(l) as { msg: string });
    expect(said.some((l) => l.msg.includes('the embedded Postgres went away'))).toBe(true);
    expect(said.some((l) => l.msg.includes('the embedded Postgres is back'))).toBe(true);
  });

  it('finishes a poll the database went away in the middle of, once it is back: each paper once', async () => {
    let killed = false;
    feeds.route((url) => {
      if (url.pathname.startsWith('/rss/')) {
        if (!killed) {
          killed = true;
          killPostgres(); // the feed answers, but the database is gone before anything is stored
        }
        return {
          body: rssFeed('cs.LG', '2026-11-16', [{ id: '2611.80001' }, { id: '2611.80002' }, { id: '2611.80003' }]),
        };
      }
      if (url.pathname === '/api/query') return { body: apiFeed([]) };
      return { body: '[]' };
    });
    const outcome = await runRetryingOutages(pollFeedsJob, app.deps, { delaysMs: RETRY });
    expect(outcome).toMatchObject({ status: 'ok', stats: { new: 3, failed: 0 } });
    expect(killed).toBe(true);
    expect(
      await app.deps.db.select({ id: papers.id }).from(papers).where(like(papers.arxivId, '2611.8%')),
    ).toHaveLength(3);
    // The run the outage cut short is marked as such by the run that completed.
    expect((await lastJobRuns(app.deps.db, 'poll-feeds')).map((r) => r.status)).toEqual(['ok', 'interrupted']);
  });

  it('finishes a digest the database went away in the middle of, without a duplicate or a gap', async () => {
    now = new Date('2026-11-16T09:05:00Z');
    await app.deps.db.insert(channels).values({ channelId: '5151', guildId: '1', postTime: '09:00', timezone: 'UTC' });
    let killed = false;
    const poster = httpPoster(fake.base, ({ nonce }) => {
      // Discord accepted part 2; the database dies before the outbox records it.
      if (!killed && nonce === deliveryNonce('5151', '2026-11-16', 1)) {
        killed = true;
        killPostgres();
      }
    });
    const parts = [1, 2, 3].map((n) => ({ reply: { content: `part ${n} of 3` }, paperIds: [] }));
    const job = postDigestsJob({ poster, compose: async () => parts });
    expect(await runRetryingOutages(job, app.deps, { delaysMs: RETRY })).toMatchObject({ status: 'ok' });
    expect(killed).toBe(true);
    expect(fake.messages.filter((m) => m.channelId === '5151').map((m) => m.body.content)).toEqual([
      'part 1 of 3',
      'part 2 of 3',
      'part 3 of 3',
    ]);
    const rows = await app.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.channelId, '5151'))
      .orderBy(asc(deliveries.part));
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('ends a CLI command whose database goes away with a message that names it', async () => {
    feeds.route((url) => {
      if (url.pathname.startsWith('/rss/')) killPostgres();
      return { body: url.pathname.startsWith('/rss/') ? rssFeed('cs.LG', '2026-11-16', [{ id: '2611.80009' }]) : '[]' };
    });
    const url = app.handle.embedded!.url('grpo_digest');
    const r = await cli(['poll', '--source', 'arxiv-rss'], {
      DATABASE_URL: url,
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^grpo-digest: lost the database, DATABASE_URL \(postgres:\/\/grpo@127\.0\.0\.1:\d+\/grpo_digest\): database unavailable/m,
    );
    expect(r.stderr).not.toContain(app.handle.embedded!.password);
    await databaseBack();
  });

  it('gives a data dir made before passwords were generated a password of its own on its next start', async () => {
    // What such a data dir looks like: the old fixed password, and no password file.
    await app.deps.sql`alter role grpo password 'grpo-local'`;
    await app.close();
    await rm(path.join(dataDir, 'pg.password'));
    app = await createApp(config, { log: createLogger('silent'), seedIfEmpty: false, watchMs: 0, now: () => now });
    expect(
      await app.deps.db.select({ id: papers.id }).from(papers).where(like(papers.arxivId, '2611.8%')),
    ).toHaveLength(3);
    const password = readFileSync(path.join(dataDir, 'pg.password'), 'utf8').trim();
    expect(password).not.toBe('grpo-local');
    expect(app.handle.embedded!.password).toBe(password);
    expect(await attempt('grpo-local')).toBe('28P01');
  });
});
