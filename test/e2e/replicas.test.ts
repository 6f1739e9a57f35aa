import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Events, type ClientOptions, type Interaction } from 'discord.js';
import { lastJobRuns } from '../../db/queries/job-runs.ts';
import { channels, interactionClaims, papers, votes } from '../../db/schema.ts';
import { runJob, type Job } from '../../jobs/index.ts';
import { pollFeedsJob } from '../../jobs/poll-feeds.ts';
import { postDigestsJob } from '../../jobs/post-digests.ts';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { DATABASE_DOWN } from '../../src/core/dispatch.ts';
import { startBot, type Bot } from '../../src/app.ts';
import { ROOT } from '../helpers/cli.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed, rssFeed } from '../helpers/feed-builders.ts';
import { startFeedServer } from '../helpers/feed-server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { APP_ID, CHANNEL_ID, startFakeDiscord, type FakeDiscord, type SentInteraction } from '../fakes/discord.ts';

const clientOptions: Partial<ClientOptions> = {
  waitGuildTimeout: 300,
  rest: { retries: 0, timeout: 5000 },
  ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
};

/**
 * Resolves once every bot's client has emitted the interaction, then once every router is done with
 * it (the router's listener was added first, so by then the interaction is in its hands).
 */
async function handledByAll(bots: Bot[], sent: SentInteraction): Promise<void> {
  await Promise.all(
    bots.map(
      (bot) =>
        new Promise<void>((resolve) => {
          const on = (i: Interaction) => {
            if (i.id !== sent.id) return;
            bot.client.off(Events.InteractionCreate, on);
            resolve();
          };
          bot.client.on(Events.InteractionCreate, on);
        }),
    ),
  );
  await Promise.all(bots.map((bot) => bot.router.drain()));
}

/** The first responses sent for an interaction (Discord accepts one; a second gets 40060). */
const callbacksOf = (fake: FakeDiscord, i: SentInteraction) =>
  fake.responsesTo(i).filter((r) => r.method === 'POST' && r.path.endsWith('/callback'));

/**
 * Two replicas of the bot (two app instances, two gateway connections) on one database and one
 * fake Discord behave as one bot: a scheduled poll runs once, a digest is delivered once, and each
 * interaction, which Discord sends to both connections, is answered by one of them.
 */
describe('two replicas on one database', () => {
  let fake: FakeDiscord;
  let t: Awaited<ReturnType<typeof createTestDb>>;
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
    t = await createTestDb();
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

  it('answers a /queue vote once when both replicas receive it: one answer, one vote stored, and the answer says so', async () => {
    const i = fake.sendChatInput({ name: 'queue', subcommand: 'vote', options: { paper: '2611.70001' } });
    await handledByAll(bots, i);
    expect(callbacksOf(fake, i)).toHaveLength(1);
    expect((await fake.waitForAnswer(i)).content).toMatch(/: 1 vote\./);
    expect(await t.db.select().from(votes)).toHaveLength(1);
    expect(await t.db.select().from(interactionClaims).where(eq(interactionClaims.id, i.id))).toHaveLength(1);
  });

  it('answers a button press and an autocomplete once each', async () => {
    const [paper] = await t.db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2611.70002'));
    const press = fake.pressButton(`vote:${paper!.id}`, { userId: '700000000000000002' });
    await handledByAll(bots, press);
    expect(callbacksOf(fake, press)).toHaveLength(1);
    expect((await fake.waitForAnswer(press)).content).toMatch(/: 1 vote\./);
    expect(await t.db.select().from(votes).where(eq(votes.userId, '700000000000000002'))).toHaveLength(1);

    const typed = fake.sendAutocomplete({
      name: 'queue',
      subcommand: 'vote',
      options: { paper: 'Replica-safe' },
      focused: 'paper',
    });
    await handledByAll(bots, typed);
    const [choices] = callbacksOf(fake, typed);
    expect(callbacksOf(fake, typed)).toHaveLength(1);
    expect(choices!.body).toMatchObject({ type: 8, data: { choices: expect.any(Array) } });
  });
});

/**
 * One process whose database connection is cut (refused, or a host that went silent) still answers
 * every interaction, with the database message, and handles none of them: it cannot know whether
 * another process took them. When the connection is back, it answers normally again.
 */
describe('one replica that cannot reach the database', () => {
  let fake: FakeDiscord;
  let proxy: TcpProxy;
  let bot: Bot;
  let t: Awaited<ReturnType<typeof createTestDb>>;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    t = await createTestDb();
    const url = new URL(t.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const config = loadConfig({
      DATABASE_URL: url.toString(),
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      LOG_LEVEL: 'silent',
    });
    const app = await createApp(config, { log: pino({ level: 'silent' }), seedIfEmpty: false });
    bot = await startBot(app, { jobs: () => [], clientOptions });
    await t.db.insert(papers).values({
      arxivId: '2611.70009',
      title: 'Outage-safe GRPO',
      titleKey: 'outagesafegrpo',
      abstract: 'Group-relative RL.',
      rulesFamily: true,
      rulesScore: 0.9,
      families: ['GRPO'],
      topics: ['algorithm'],
      newsAt: new Date(),
    });
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore();
    await bot?.stop();
    await proxy?.close();
    await fake?.close();
  });

  const vote = () => fake.sendChatInput({ name: 'queue', subcommand: 'vote', options: { paper: '2611.70009' } });

  it.each([
    ['refuses connections', 'refuse'],
    ['goes silent', 'stall'],
  ] as const)('tells the member the database is unreachable, once, and stores nothing when it %s', async (_, fault) => {
    await proxy[fault]();
    const i = vote();
    await handledByAll([bot], i);
    expect(callbacksOf(fake, i)).toHaveLength(1);
    expect(await fake.waitForAnswer(i)).toMatchObject({ content: DATABASE_DOWN, flags: 64 });
    await proxy.restore();
    expect(await t.db.select().from(votes)).toHaveLength(0);
  });

  it('answers normally once the database is reachable again', async () => {
    const i = vote();
    await handledByAll([bot], i);
    expect((await fake.waitForAnswer(i)).content).toMatch(/: 1 vote\./);
    expect(await t.db.select().from(votes)).toHaveLength(1);
  });
});

/** A `grpo-digest start` process, its log (JSON lines on stderr) and a wait for a line in it. */
function startProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(path.join(ROOT, 'bin/grpo-digest'), ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (c: Buffer) => {
    log += String(c);
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    exited,
    log: () => log,
    /** Resolves when the log has a line matching `re`; rejects after `ms`, with the log. */
    logged(re: RegExp, ms = 60_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!re.test(log)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no log line matching ${re} within ${ms} ms:\n${log.slice(-2000)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    stop: () => child.kill('SIGTERM'),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Two real `grpo-digest start` processes on one token, one database and one fake Discord, which
 * sends each interaction to both gateway connections: one process answers, the other logs that
 * another process claimed it, and the vote is stored once.
 */
describe('two bot processes on one token', () => {
  it('answers a /queue vote from one process only, and both shut down cleanly', async () => {
    const fake = await startFakeDiscord();
    const t = await createTestDb();
    await t.db.insert(papers).values({
      arxivId: '2611.70021',
      title: 'Two-process GRPO',
      titleKey: 'twoprocessgrpo',
      abstract: 'Group-relative RL.',
      rulesFamily: true,
      rulesScore: 0.9,
      families: ['GRPO'],
      topics: ['algorithm'],
      newsAt: new Date(),
    });
    const nowhere = 'http://127.0.0.1:9'; // feeds: never the internet, should a scheduled poll fire
    const env = {
      LOG_LEVEL: 'debug',
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      ARXIV_RSS_BASE: nowhere,
      ARXIV_API_BASE: nowhere,
      HF_API_BASE: nowhere,
    };
    const procs = [startProcess(env), startProcess(env)];
    try {
      await Promise.all(procs.map((p) => p.logged(/"msg":"discord ready"/, 90_000)));
      const i = fake.sendChatInput({ name: 'queue', subcommand: 'vote', options: { paper: '2611.70021' } });
      // Each process is done with it: one answered the command, the other left it to the first.
      const answered = /"msg":"command answered"/;
      const declined = new RegExp(`"interaction":"${i.id}"[^\n]*"msg":"interaction claimed by another process"`);
      await Promise.all(procs.map((p) => Promise.any([p.logged(answered), p.logged(declined)])));
      expect((await fake.waitForAnswer(i)).content).toMatch(/: 1 vote\./);
      procs.forEach((p) => p.stop());
      expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
      expect(procs.filter((p) => answered.test(p.log()))).toHaveLength(1);
      expect(procs.filter((p) => declined.test(p.log()))).toHaveLength(1);
      expect(callbacksOf(fake, i)).toHaveLength(1);
      expect(await t.db.select().from(votes)).toHaveLength(1);
    } finally {
      procs.forEach((p) => p.kill());
      await fake.close();
    }
  }, 150_000);
});
