import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, deliveries, feedState, jobRuns } from '../../db/schema.ts';
import { createApp, startBot, type Bot } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { HealthReport } from '../../src/core/ops/health.ts';
import { createTestDb } from '../helpers/db.ts';
import { APP_ID, CHANNEL_ID, startFakeDiscord, type FakeDiscord } from '../fakes/discord.ts';

const H = 3_600_000;

/** The operator's endpoint of the running bot (METRICS_PORT): the real client against the fake Discord, a real database. */
describe('the health and metrics endpoint', () => {
  let fake: FakeDiscord;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let bot: Bot;
  const get = async (path: string) => {
    const res = await fetch(`${bot.opsUrl}${path}`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const health = async () => {
    const r = await get('/healthz');
    return { status: r.status, report: JSON.parse(r.text) as HealthReport };
  };
  const polledAgo = (ms: number) =>
    t.db
      .insert(feedState)
      .values({ feed: 'hf-daily', lastSuccessAt: new Date(Date.now() - ms) })
      .onConflictDoUpdate({ target: feedState.feed, set: { lastSuccessAt: new Date(Date.now() - ms) } });

  beforeAll(async () => {
    fake = await startFakeDiscord();
    t = await createTestDb();
    const config = loadConfig({
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      METRICS_PORT: '9464',
      LOG_LEVEL: 'silent',
    });
    config.ops.port = 0; // any free port: test files run in parallel
    const app = await createApp(config, { log: pino({ level: 'silent' }), seedIfEmpty: false });
    bot = await startBot(app, {
      jobs: () => [],
      clientOptions: { waitGuildTimeout: 300, rest: { retries: 0, timeout: 5000 } },
    });
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('listens on 127.0.0.1 only by default', () => {
    expect(bot.opsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers 200 when the gateway is connected, the database answers, a feed was polled lately and nothing waits', async () => {
    await polledAgo(2 * H);
    const { status, report } = await health();
    expect(status).toBe(200);
    expect(report.healthy).toBe(true);
    expect(report.checks.gateway).toMatchObject({ ok: true, detail: expect.stringMatching(/^1 shard ready/) });
    expect(report.checks.database.ok).toBe(true);
    expect(report.checks.poll).toMatchObject({ ok: true, ageSeconds: expect.any(Number) });
    expect(report.checks.outbox).toMatchObject({ ok: true, digests: 0, notifications: 0 });
  });

  it('answers 503 and says why when no feed was polled successfully for longer than the limit', async () => {
    await polledAgo(30 * H);
    const { status, report } = await health();
    expect(status).toBe(503);
    expect(report.checks.poll).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/last successful poll 30 h ago \(limit 26 h\)/),
    });
    expect(report.checks.gateway.ok).toBe(true);
    await polledAgo(H);
  });

  it('answers 503 when a digest message has waited in the outbox longer than the limit, and 200 once it is sent', async () => {
    await t.db.insert(channels).values({ channelId: CHANNEL_ID, guildId: '200000000000000002', enabled: true });
    const [row] = await t.db
      .insert(deliveries)
      .values({
        channelId: CHANNEL_ID,
        digestKey: '2026-11-20',
        part: 0,
        nonce: 'n-ops-1',
        payload: { reply: { content: 'x' }, pingRoleIds: [] },
        createdAt: new Date(Date.now() - 3 * H),
      })
      .returning();
    const stuck = await health();
    expect(stuck.status).toBe(503);
    expect(stuck.report.checks.outbox).toMatchObject({
      ok: false,
      digests: 1,
      detail: expect.stringMatching(/delivery is stuck/),
    });
    await t.db.update(deliveries).set({ status: 'sent', sentAt: new Date() }).where(eq(deliveries.id, row!.id));
    expect((await health()).status).toBe(200);
  });

  it('serves Prometheus text: stored totals, the gateway, and how fast interactions got their first response', async () => {
    await t.db.insert(jobRuns).values({
      job: 'post-digests',
      status: 'ok',
      stats: { planned: 2, messages: 5, failed: 1 },
      finishedAt: new Date(),
    });
    await t.db.insert(jobRuns).values({
      job: 'poll-feeds',
      status: 'ok',
      finishedAt: new Date(),
      stats: {
        new: 3,
        feeds: {
          'arxiv-rss:cs.LG': { status: 'ok', fetched: 40, new: 3, family: 1 },
          'hf-daily': { status: 'failed', fetched: 0, new: 0, family: 0 },
        },
      },
    });
    const i = fake.sendChatInput({ name: 'help' });
    await fake.waitForResponse(i);

    const r = await get('/metrics');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const line = (name: string) => r.text.split('\n').find((l) => l.startsWith(name));
    expect(line('grpo_digest_database_up')).toBe('grpo_digest_database_up 1');
    expect(line('grpo_digest_gateway_connected')).toBe('grpo_digest_gateway_connected 1');
    expect(line('grpo_digest_papers ')).toBe('grpo_digest_papers 0');
    expect(line('grpo_digest_job_stat_total{job="post-digests",stat="messages"}')).toMatch(/ 5$/);
    expect(line('grpo_digest_job_stat_total{job="post-digests",stat="failed"}')).toMatch(/ 1$/);
    expect(line('grpo_digest_feed_polls_total{feed="hf-daily",status="failed"}')).toMatch(/ 1$/);
    expect(line('grpo_digest_feed_items_total{feed="arxiv-rss:cs.LG",kind="new"}')).toMatch(/ 3$/);
    expect(line('grpo_digest_digest_messages{status="sent"}')).toMatch(/ 1$/);
    expect(line('grpo_digest_interaction_response_seconds_count{type="command",command="help"}')).toMatch(/ 1$/);
    expect(line('grpo_digest_interactions_unanswered_total')).toBeUndefined(); // nothing missed: no series yet
    expect(r.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('serves nothing else, and changes nothing', async () => {
    expect((await get('/')).status).toBe(404);
    expect((await fetch(`${bot.opsUrl}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
