import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'discord.js';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { channels, papers } from '../../db/schema.ts';
import { runJob, type Job } from '../../jobs/index.ts';
import { pollFeedsJob } from '../../jobs/poll-feeds.ts';
import { postDigestsJob } from '../../jobs/post-digests.ts';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { startBot, type Bot } from '../../src/app.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed, rssFeed } from '../helpers/feed-builders.ts';
import { startFeedServer } from '../helpers/feed-server.ts';
import { APP_ID, CHANNEL_ID, startFakeDiscord, type FakeDiscord } from '../fakes/discord.ts';

const clientOptions: Partial<ClientOptions> = {
  waitGuildTimeout: 300,
  rest: { retries: 0, timeout: 5000 },
  ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
};

/**
 * Two replicas of the bot (two app instances, two gateway connections) on one database and one
 * fake Discord behave as one bot: a scheduled poll runs once, and a digest is delivered once.
 */
describe('two replicas on one database', () => {
  let fake: FakeDiscord;
  const apps: App[] = [];
  const bots: Bot[] = [];

  beforeAll(async () => {
    fake = await startFakeDiscord();
    const feeds = await startFeedServer((url) => {
      if (url.pathname.startsWith('/rss/')) return { body: rssFeed(url.pathname.slice(5), '2026-11-20', []) };
      if (url.pathname === '/api/query') return { body: apiFeed([]) };
      if (url.pathname === '/api/daily_papers') return { body: '[]' };
      return undefined;
    });
    const t = await createTestDb();
    const config = loadConfig({
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      LOG_LEVEL: 'silent',
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_API_BASE: `${feeds.base}/api/query`,
      HF_API_BASE: `${feeds.base}/api`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    });
    for (let i = 0; i < 2; i++) {
      const app = await createApp(config, { log: pino({ level: 'silent' }), seedIfEmpty: i === 0 });
      apps.push(app);
      bots.push(await startBot(app, { jobs: () => [], clientOptions }));
    }
    await t.db
      .insert(channels)
      .values({ channelId: CHANNEL_ID, guildId: '200000000000000002', postTime: '00:00', timezone: 'UTC' });
    await t.db.insert(papers).values(
      [1, 2, 3].map((n) => ({
        arxivId: `2611.7000${n}`,
        title: `Replica-safe GRPO ${n}`,
        titleKey: `replicasafegrpo${n}`,
        abstract: 'Group-relative RL with verifiable rewards.',
        rulesFamily: true,
        rulesScore: 0.9,
        families: ['GRPO'],
        topics: ['algorithm'],
        newsAt: new Date(),
      })),
    );
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await fake?.close();
  });

  const depsOf = (app: App) => app.deps;

  /**
   * Fires a job on both replicas at once. The replica that takes the lock waits at a gate until the
   * other has finished, so "at once" holds however the machine schedules them.
   */
  async function fireOnBoth(jobFor: (i: number) => Job) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const runs = apps.map((app, i) => {
      const job = jobFor(i);
      return runJob(
        {
          ...job,
          run: async (d) => {
            await gate;
            return job.run(d);
          },
        },
        depsOf(app),
      );
    });
    const first = await Promise.race(runs);
    open();
    return { first, all: await Promise.all(runs) };
  }

  it('runs a scheduled poll once when both replicas fire it at the same moment', async () => {
    const { first, all } = await fireOnBoth(() => pollFeedsJob);
    expect(first.status).toBe('skipped');
    expect(all.map((o) => o.status).sort()).toEqual(['ok', 'skipped']);
    expect((await lastJobRuns(apps[0]!.deps.db, 'poll-feeds')).filter((r) => r.status === 'ok')).toHaveLength(1);
  });

  it('delivers a digest once: only one replica sends, with one request per message', async () => {
    const posts = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${CHANNEL_ID}/messages`);
    const { first, all } = await fireOnBoth((i) => postDigestsJob({ poster: bots[i]!.poster }));
    expect(first.status).toBe('skipped');
    expect(all.map((o) => o.status).sort()).toEqual(['ok', 'skipped']);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body.embeds).toHaveLength(3);
    // Later runs of either replica find the digest delivered.
    await Promise.all(apps.map((app, i) => runJob(postDigestsJob({ poster: bots[i]!.poster }), depsOf(app))));
    await runJob(postDigestsJob({ poster: bots[1]!.poster }), depsOf(apps[1]!));
    expect(posts()).toHaveLength(1);
  });
});
