/**
 * Fan-out: a digest day for 1,000 channels (one per server) through the real delivery
 * (`deliverDigests`: composer, outbox, nonces) and the real poster (discord.js), against the fake
 * Discord enforcing Discord's limits: 50 bot requests a second, 5 messages per channel every 5 s,
 * 429 with retry_after, and a round trip per request. The floor is what those limits allow for the
 * same requests, computed, and measured in the same run by posting the same number of messages per
 * channel straight through the client's REST (every channel at once, no database).
 */
import { once } from 'node:events';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { DefaultRestOptions, Events, Routes, type RESTOptions } from 'discord.js';
import type { Db } from '../db/client.ts';
import { channels, deliveries, papers } from '../db/schema.ts';
import { buildDeps } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { createDiscordPorts } from '../src/adapters/discord/bot.ts';
import { deliverDigests } from '../src/services/outbox/deliver.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { APP_ID, startFakeDiscord, type FakeDiscord, type RateLimits } from '../test/fakes/discord.ts';
import type { BenchServer } from './pg.ts';
import { round } from './stats.ts';

export const DISCORD_LIMITS: RateLimits = { globalPerSecond: 50, channelMessages: { limit: 5, windowMs: 5000 } };
const NOW = new Date('2026-11-21T08:01:00Z');

export interface FanoutResult {
  channels: number;
  papers: number;
  latencyMs: number;
  /** Bot requests the delivery made: messages (and thread starts), by route. */
  requests: { messages: number; threads: number; other: number; total: number };
  messagesPerChannel: { min: number; max: number; mean: number };
  floor: {
    computedSeconds: number;
    globalBoundSeconds: number;
    channelBoundSeconds: number;
    measuredSeconds: number;
    measuredRateLimited: { global: number; channel: number };
  };
  delivery: {
    seconds: number;
    planSeconds: number;
    ratioToComputedFloor: number;
    ratioToMeasuredFloor: number;
    rateLimited: { global: number; channel: number };
    busiestSecond: number;
    counts: Record<string, number>;
  };
  exactlyOnce: { channelsWithDigest: number; missing: number; duplicated: number; outOfOrder: number };
  loadAverage: { start: number[]; end: number[] };
}

const loadavg = () => os.loadavg().map((x) => round(x, 2));

/** A day of GRPO-family papers and 1,000 digest channels, all due at NOW; a fifth open a thread per paper. */
async function seedDay(db: Db, channelIds: readonly string[], nPapers: number): Promise<void> {
  await db.insert(papers).values(
    Array.from({ length: nPapers }, (_, i) => ({
      arxivId: `2611.${String(10001 + i)}`,
      arxivVersion: 1,
      title: `Group relative policy optimization variant ${i + 1} for long reasoning`,
      titleKey: titleKey(`Group relative policy optimization variant ${i + 1} for long reasoning`),
      abstract:
        `We propose variant ${i + 1} of GRPO that changes how group-normalised advantages are clipped. On AIME and MATH-500 it improves a 7B model trained with verifiable rewards. `.repeat(
          3,
        ),
      authors: ['A. Author', 'B. Author'],
      authorCount: 2,
      publishedOn: '2026-11-20',
      rulesFamily: true,
      rulesScore: 0.9,
      families: ['GRPO'],
      topics: ['algorithm'],
      newsAt: new Date(NOW.getTime() - 3_600_000 + i * 1000),
    })),
  );
  await db.insert(channels).values(
    channelIds.map((channelId, i) => ({
      channelId,
      guildId: String(210000000000000000n + BigInt(i) * 4194304n),
      postTime: '08:00',
      timezone: 'UTC',
      maxPapers: [5, 10, 10, 15][i % 4]!,
      threadPerPaper: i % 5 === 0,
    })),
  );
}

async function loggedIn(fake: FakeDiscord, rest: Partial<RESTOptions> = {}) {
  const config = loadConfig({
    DISCORD_TOKEN: 'bench-token',
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_API_BASE: fake.api,
    LOG_LEVEL: 'silent',
  });
  const ports = createDiscordPorts(config, { waitGuildTimeout: 5000, rest });
  const ready = once(ports.client, Events.ClientReady);
  await ports.client.login('bench-token');
  await ready;
  return ports;
}

/**
 * The floor measured: the delivery's requests again (per channel its messages, each followed by its
 * thread start when it had one), every channel at once, through discord.js alone (its own rate
 * limiter, without this bot's pacing), no database.
 */
async function measuredFloor(fake: FakeDiscord, perChannel: Map<string, ('message' | 'thread')[]>): Promise<number> {
  const { client } = await loggedIn(fake, { makeRequest: DefaultRestOptions.makeRequest });
  try {
    const t0 = performance.now();
    await Promise.all(
      [...perChannel].map(async ([channelId, kinds]) => {
        let last = '';
        for (const [k, kind] of kinds.entries()) {
          if (kind === 'message')
            last = (
              (await client.rest.post(Routes.channelMessages(channelId), { body: { content: `floor ${k + 1}` } })) as {
                id: string;
              }
            ).id;
          else await client.rest.post(Routes.threads(channelId, last), { body: { name: `floor ${k + 1}` } });
        }
      }),
    );
    return (performance.now() - t0) / 1000;
  } finally {
    await client.destroy();
  }
}

export async function benchFanout(
  bench: BenchServer,
  o: { channels: number; papers: number; latencyMs: number; log: (s: string) => void },
): Promise<FanoutResult> {
  const loadStart = loadavg();
  const handle = await bench.freshDb('fanout');
  const fake = await startFakeDiscord({ extraGuilds: o.channels, rateLimits: DISCORD_LIMITS, latencyMs: o.latencyMs });
  const ports = await loggedIn(fake);
  try {
    await seedDay(handle.db, fake.extraChannelIds, o.papers);
    const deps = buildDeps({
      db: handle.db,
      sql: handle.sql,
      config: loadConfig({}),
      log: pino({ level: 'silent' }),
      now: () => NOW,
    });
    o.log(`fanout: a digest day for ${o.channels} channels (round trip ${o.latencyMs} ms, Discord's limits enforced)`);
    const t0 = performance.now();
    const counts = await deliverDigests(deps, { poster: ports.poster });
    const seconds = (performance.now() - t0) / 1000;
    // Composing and planning every digest comes before the first send.
    const firstSend = Math.min(...fake.requests.filter((r) => r.auth && r.method === 'POST').map((r) => r.at));
    const planSeconds = round((firstSend - t0) / 1000, 2);
    const limitedByDelivery = { ...fake.rateLimited };
    // The most bot requests that reached the fake within any one second (its clock): above 50 means bunching on the way.
    const arrivals = fake.requests
      .filter((r) => r.auth)
      .map((r) => r.at)
      .sort((a, b) => a - b);
    let busiestSecond = 0;
    for (let i = 0, j = 0; j < arrivals.length; j++) {
      while (arrivals[j]! - arrivals[i]! >= 1000) i++;
      busiestSecond = Math.max(busiestSecond, j - i + 1);
    }
    const authed = fake.requests.filter((r) => r.auth && r.status !== 429);
    const requests = {
      messages: authed.filter((r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.path)).length,
      threads: authed.filter((r) => /\/threads$/.test(r.path)).length,
      other: 0,
      total: authed.length,
    };
    requests.other = requests.total - requests.messages - requests.threads;

    // Exactly once: every planned part of every channel is in the channel once, in part order.
    const planned = await handle.db
      .select({
        channelId: deliveries.channelId,
        part: deliveries.part,
        nonce: deliveries.nonce,
        status: deliveries.status,
      })
      .from(deliveries);
    const posted = new Map<string, string[]>();
    for (const m of fake.messages) if (m.nonce) posted.set(m.channelId, [...(posted.get(m.channelId) ?? []), m.nonce]);
    let missing = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    const perChannel = new Map<string, number>();
    const requestsOf = new Map<string, ('message' | 'thread')[]>();
    for (const r of authed) {
      const m = /^\/channels\/(\d+)\/messages(\/\d+\/threads)?$/.exec(r.path);
      if (m && r.method === 'POST')
        requestsOf.set(m[1]!, [...(requestsOf.get(m[1]!) ?? []), m[2] ? 'thread' : 'message']);
    }
    for (const channelId of fake.extraChannelIds) {
      const parts = planned
        .filter((p) => p.channelId === channelId && p.status !== 'empty')
        .sort((a, b) => a.part - b.part)
        .map((p) => p.nonce);
      const got = posted.get(channelId) ?? [];
      perChannel.set(channelId, parts.length);
      missing += parts.filter((n) => !got.includes(n)).length;
      duplicated += got.length - new Set(got).size;
      if (got.length === parts.length && new Set(got).size === got.length && got.join() !== parts.join()) outOfOrder++;
    }
    const counted = [...perChannel.values()];
    const maxParts = Math.max(...counted);
    // Per channel: the first 5 messages at once, then 5 more each time its window reopens.
    const channelBound =
      (Math.ceil(maxParts / DISCORD_LIMITS.channelMessages.limit) - 1) *
      (DISCORD_LIMITS.channelMessages.windowMs / 1000);
    const globalBound = requests.total / DISCORD_LIMITS.globalPerSecond;
    const computed = Math.max(globalBound, channelBound) + o.latencyMs / 1000;

    o.log(`fanout: delivered in ${round(seconds)} s; measuring the floor through raw REST`);
    await new Promise((r) => setTimeout(r, DISCORD_LIMITS.channelMessages.windowMs + 1000)); // every window closed
    const before = { ...fake.rateLimited };
    const measured = await measuredFloor(fake, requestsOf);
    return {
      channels: o.channels,
      papers: o.papers,
      latencyMs: o.latencyMs,
      requests,
      messagesPerChannel: {
        min: Math.min(...counted),
        max: maxParts,
        mean: round(counted.reduce((a, b) => a + b, 0) / counted.length, 2),
      },
      floor: {
        computedSeconds: round(computed, 2),
        globalBoundSeconds: round(globalBound, 2),
        channelBoundSeconds: channelBound,
        measuredSeconds: round(measured, 2),
        measuredRateLimited: {
          global: fake.rateLimited.global - before.global,
          channel: fake.rateLimited.channel - before.channel,
        },
      },
      delivery: {
        seconds: round(seconds, 2),
        ratioToComputedFloor: round(seconds / computed, 2),
        ratioToMeasuredFloor: round(seconds / measured, 2),
        planSeconds,
        rateLimited: limitedByDelivery,
        busiestSecond,
        counts,
      },
      exactlyOnce: { channelsWithDigest: counted.filter((n) => n > 0).length, missing, duplicated, outOfOrder },
      loadAverage: { start: loadStart, end: loadavg() },
    };
  } finally {
    await ports.client.destroy();
    await fake.close();
    await handle.close();
  }
}
