import { execFile } from 'node:child_process';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DigestMessage } from '../../../../src/core/digest/types.ts';
import { channels, deliveries, papers } from '../../../../db/schema.ts';
import { createDb } from '../../../../db/client.ts';
import { postDigestNow } from '../../../../commands/digest/now.ts';
import { runJob, type JobDeps } from '../../../../jobs/index.ts';
import { postDigestsJob } from '../../../../jobs/post-digests.ts';
import { deliverDigests, outboxRows, type ComposeDigest } from '../../../../src/services/outbox/deliver.ts';
import { buildDeps } from '../../../../src/app.ts';
import { loadConfig } from '../../../../src/core/config.ts';
import { deliveryNonce, type Poster } from '../../../../src/core/delivery/poster.ts';
import type { Reply } from '../../../../src/core/reply.ts';
import { createTestDb } from '../../../helpers/db.ts';
import { ROOT } from '../../../helpers/cli.ts';
import { startFakeChannels } from '../../../helpers/fake-channel.ts';
import { httpPoster } from '../../../helpers/http-poster.ts';

/** A poster that keeps what it was given (files included, which the HTTP fake would drop). */
function keepingPoster(): Poster & { sent: { channelId: string; message: Reply; nonce: string }[] } {
  const sent: { channelId: string; message: Reply; nonce: string }[] = [];
  return {
    sent,
    async send(channelId, message, { nonce }) {
      sent.push({ channelId, message, nonce });
      return { messageId: `m${sent.length}` };
    },
    async findSent(channelId, _message, { nonce }) {
      const i = sent.findIndex((p) => p.channelId === channelId && p.nonce === nonce);
      return i < 0 ? null : { messageId: `m${i + 1}` };
    },
  };
}

const parts = (n: number, tag: string): DigestMessage[] =>
  Array.from({ length: n }, (_, i) => ({ reply: { content: `${tag} part ${i + 1}/${n}` }, paperIds: [i + 1] }));

describe('deliverDigests', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let fake: Awaited<ReturnType<typeof startFakeChannels>>;
  let now: Date;
  const deps = (): JobDeps =>
    buildDeps({ db: t.db, sql: t.sql, config: loadConfig({}), log: pino({ level: 'silent' }), now: () => now });
  const composed: string[] = [];
  const compose =
    (n: number): ComposeDigest =>
    async (_db, channel, key) => {
      composed.push(`${channel.channelId}/${key}`);
      return parts(n, `${channel.channelId} ${key}`);
    };
  const rows = (channelId: string) =>
    t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.channelId, channelId))
      .orderBy(asc(deliveries.digestKey), asc(deliveries.part));

  beforeAll(async () => {
    t = await createTestDb();
    fake = await startFakeChannels({ forbidden: ['300'] });
    await t.db.insert(channels).values([
      { channelId: '100', guildId: '1', postTime: '09:00', timezone: 'Europe/Berlin' },
      { channelId: '200', guildId: '1', postTime: '09:00', timezone: 'America/New_York' },
      { channelId: '300', guildId: '1', postTime: '08:00', timezone: 'UTC' },
    ]);
  });

  it('posts each channel at its own local time, every part once and in order', async () => {
    now = new Date('2026-11-20T07:30:00Z'); // 08:30 in Berlin, 02:30 in New York
    const poster = httpPoster(fake.base);
    expect(await deliverDigests(deps(), { poster, compose: compose(3), channelId: '100' })).toMatchObject({
      planned: 0,
      messages: 0,
    });
    now = new Date('2026-11-20T08:05:00Z'); // 09:05 in Berlin
    expect(await deliverDigests(deps(), { poster, compose: compose(3), channelId: '100' })).toMatchObject({
      planned: 1,
      messages: 3,
    });
    expect(fake.messages.filter((m) => m.channelId === '100').map((m) => m.body.content)).toEqual([
      '100 2026-11-20 part 1/3',
      '100 2026-11-20 part 2/3',
      '100 2026-11-20 part 3/3',
    ]);
    expect((await t.db.select().from(channels).where(eq(channels.channelId, '100')))[0]!.lastDigestAt).toEqual(now);
    // Later runs that day (every five minutes, or a second replica) post nothing and compose nothing.
    const before = composed.length;
    await deliverDigests(deps(), { poster, compose: compose(3), channelId: '100' });
    expect(composed.length).toBe(before);
    expect(fake.messages.filter((m) => m.channelId === '100')).toHaveLength(3);
  });

  it('finishes a digest after a crash between two messages, without duplicates or gaps, however late the restart', async () => {
    now = new Date('2026-11-20T15:00:00Z'); // 10:00 in New York
    // Plan channel 200's digest, then deliver it in a process that is killed right after Discord accepted part 2.
    const { planDigest } = await import('../../../../db/queries/deliveries.ts');
    await planDigest(t.db, '200', '2026-11-20', outboxRows('200', '2026-11-20', parts(3, '200')), now);
    const crash = await new Promise<{ signal: string | null; code: number | null }>((resolve) => {
      execFile(
        path.join(ROOT, 'node_modules/.bin/tsx'),
        [path.join(ROOT, 'test/helpers/crash-run.ts')],
        {
          env: {
            PATH: process.env.PATH!,
            DATABASE_URL: t.url,
            FAKE_BASE: fake.base,
            CRASH_CHANNEL: '200',
            CRASH_NONCE: deliveryNonce('200', '2026-11-20', 1),
            NOW: now.toISOString(),
          },
        },
        (err) =>
          resolve({
            signal: (err as { signal?: string } | null)?.signal ?? null,
            code: (err as { code?: number } | null)?.code ?? null,
          }),
      );
    });
    // tsx runs the script in a child process and reports its SIGKILL as exit code 137 (128 + 9).
    expect(crash.signal ?? crash.code).toBeOneOf(['SIGKILL', 137]);
    expect((await rows('200')).map((r) => r.status)).toEqual(['sent', 'sending', 'pending']);
    expect(fake.messages.filter((m) => m.channelId === '200')).toHaveLength(2);

    // Restarted 30 s later, the dead run's claim on part 2 still holds: nothing is sent (it might still be on its way).
    const crashedAt = now;
    now = new Date(crashedAt.getTime() + 30_000);
    expect(
      await deliverDigests(deps(), { poster: httpPoster(fake.base), compose: compose(3), channelId: '200' }),
    ).toMatchObject({ messages: 0, busy: 1 });
    expect(fake.messages.filter((m) => m.channelId === '200')).toHaveLength(2);

    // The bot restarts 330 s later, past the claim and Discord's few minutes of nonce memory: a re-send with the same
    // nonce would post part 2 again, so the outbox takes the lapsed claim, finds the part in the channel and records it sent, then sends part 3.
    now = new Date(crashedAt.getTime() + 330_000);
    fake.forgetNonces();
    const counts = await deliverDigests(deps(), {
      poster: httpPoster(fake.base),
      compose: compose(3),
      channelId: '200',
    });
    expect(counts).toMatchObject({ planned: 0, messages: 2, failed: 0 });
    expect(fake.messages.filter((m) => m.channelId === '200').map((m) => m.body.content)).toEqual([
      '200 part 1/3',
      '200 part 2/3',
      '200 part 3/3',
    ]);
    const final = await rows('200');
    expect(final.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(new Set(final.map((r) => r.messageId)).size).toBe(3);
    // Found, not sent again: the one attempt was the crashed run's.
    expect(final[1]!.attempts).toBe(1);
  });

  it('marks a channel it can no longer post to and still delivers to the others', async () => {
    now = new Date('2026-11-21T16:00:00Z');
    const counts = await deliverDigests(deps(), { poster: httpPoster(fake.base), compose: compose(1) });
    expect(counts).toMatchObject({ undeliverable: 1 });
    const [lost] = await t.db.select().from(channels).where(eq(channels.channelId, '300'));
    expect(lost!.deliveryError).toMatch(/Missing Access/);
    expect(fake.messages.filter((m) => m.channelId !== '300').map((m) => m.body.content)).toEqual(
      expect.arrayContaining(['100 2026-11-21 part 1/1', '200 2026-11-21 part 1/1']),
    );
    // Skipped from then on: no more attempts until the channel is set up again.
    const attempts = (await rows('300'))[0]!.attempts;
    await deliverDigests(deps(), { poster: httpPoster(fake.base), compose: compose(1) });
    expect((await rows('300'))[0]!.attempts).toBe(attempts);
  });

  it('settles a quiet day without posting, and leaves the window open for the next digest', async () => {
    await t.db.insert(channels).values({ channelId: '400', guildId: '1', postTime: '09:00', timezone: 'UTC' });
    now = new Date('2026-11-21T09:30:00Z');
    expect(
      await deliverDigests(deps(), { poster: httpPoster(fake.base), compose: compose(0), channelId: '400' }),
    ).toMatchObject({ planned: 1, messages: 0 });
    expect((await rows('400')).map((r) => r.status)).toEqual(['empty']);
    expect(
      (
        await t.db
          .select()
          .from(channels)
          .where(and(eq(channels.channelId, '400')))
      )[0]!.lastDigestAt,
    ).toBeNull();
    expect(fake.messages.filter((m) => m.channelId === '400')).toEqual([]);
  });

  it('posts the composed digest of new GRPO-family papers, and the next day only what is newer', async () => {
    await t.db
      .insert(channels)
      .values({ channelId: '500', guildId: '1', postTime: '08:00', timezone: 'UTC', pingRoleId: '777' });
    const paper = (n: number, newsAt: string, grpoFamily = true) => ({
      arxivId: `2611.6000${n}`,
      title: `GRPO variant ${n}: @everyone look`,
      titleKey: `grpovariant${n}`,
      abstract: `Variant ${n} normalises advantages per group. It trains a 7B model with RLVR.`,
      rulesFamily: grpoFamily,
      rulesScore: grpoFamily ? 0.9 : 0.1,
      families: grpoFamily ? ['GRPO'] : [],
      topics: ['algorithm'],
      newsAt: new Date(newsAt),
    });
    await t.db
      .insert(papers)
      .values([
        paper(1, '2026-11-22T06:20:00Z'),
        paper(2, '2026-11-22T06:20:00Z'),
        paper(3, '2026-11-22T06:20:00Z', false),
      ]);
    now = new Date('2026-11-22T08:01:00Z');
    await deliverDigests(deps(), { poster: httpPoster(fake.base), channelId: '500' });
    const posted = fake.messages.filter((m) => m.channelId === '500');
    expect(posted).toHaveLength(1);
    const embeds = posted[0]!.body.embeds ?? [];
    expect(embeds.map((e) => e.title).sort()).toEqual([
      'GRPO variant 1: @\u200beveryone look',
      'GRPO variant 2: @\u200beveryone look',
    ]);
    expect(
      posted[0]!.body.components
        ?.flat()
        .filter((b) => b.kind === 'action')
        .map((b) => (b.kind === 'action' ? b.customId : '')),
    ).toHaveLength(2);
    expect((await rows('500'))[0]!.payload).toMatchObject({ pingRoleIds: ['777'] });

    await t.db.insert(papers).values(paper(4, '2026-11-23T06:20:00Z'));
    now = new Date('2026-11-23T08:01:00Z');
    await deliverDigests(deps(), { poster: httpPoster(fake.base), channelId: '500' });
    const next = fake.messages.filter((m) => m.channelId === '500').slice(1);
    expect(next.flatMap((m) => m.body.embeds ?? []).map((e) => e.title)).toEqual([
      'GRPO variant 4: @\u200beveryone look',
    ]);
  });

  it("draws a weekly digest's header picture onto its first message when sending, and without it still posts the digest once", async () => {
    await t.db.insert(channels).values([
      {
        channelId: '600',
        guildId: '1',
        postTime: '09:00',
        timezone: 'UTC',
        cadence: 'weekly',
        weekday: 1,
        headerImage: true,
      },
      {
        channelId: '700',
        guildId: '1',
        postTime: '09:00',
        timezone: 'UTC',
        cadence: 'weekly',
        weekday: 1,
        headerImage: true,
      },
    ]);
    const picture = { date: '2026-11-23', total: 3, families: [{ name: 'GRPO', count: 3 }] };
    const weekly: ComposeDigest = async (_db, channel) =>
      parts(2, channel.channelId).map((m, i) => (i === 0 ? { ...m, picture } : m));
    const drawn: unknown[] = [];
    const draw = async (p: unknown) => {
      drawn.push(p);
      return {
        name: 'digest-week-2026-11-23.png',
        data: new Uint8Array([1, 2, 3]),
        description: 'the week by family',
        width: 1000,
        height: 400,
      };
    };
    now = new Date('2026-11-23T09:05:00Z'); // a Monday

    const poster = keepingPoster();
    expect(
      await deliverDigests(deps(), { poster, compose: weekly, channelId: '600', drawPicture: draw }),
    ).toMatchObject({ messages: 2, failed: 0 });
    expect(drawn).toEqual([picture]);
    expect(poster.sent.map((s) => s.message.files?.map((f) => f.name))).toEqual([
      ['digest-week-2026-11-23.png'],
      undefined,
    ]);
    // The outbox keeps what to draw, never the PNG.
    expect((await rows('600'))[0]!.payload).toMatchObject({ picture, reply: { content: '600 part 1/2' } });
    expect(JSON.stringify((await rows('600'))[0]!.payload)).not.toContain('files');

    const failing = keepingPoster();
    const broken = async () => {
      throw new Error('the renderer is missing on this machine');
    };
    expect(
      await deliverDigests(deps(), { poster: failing, compose: weekly, channelId: '700', drawPicture: broken }),
    ).toMatchObject({ messages: 2, failed: 0 });
    expect(failing.sent.map((s) => [s.message.content, s.message.files])).toEqual([
      ['700 part 1/2', undefined],
      ['700 part 2/2', undefined],
    ]);
    expect((await rows('700')).map((r) => r.status)).toEqual(['sent', 'sent']);
    await deliverDigests(deps(), { poster: failing, compose: weekly, channelId: '700', drawPicture: broken });
    expect(failing.sent).toHaveLength(2);
  });

  it('delivers channels side by side: one whose sends hang does not hold up the others, and its parts stay in order', async () => {
    await t.db.insert(channels).values([
      { channelId: '610', guildId: '1', postTime: '08:00', timezone: 'UTC' },
      { channelId: '620', guildId: '1', postTime: '08:00', timezone: 'UTC' },
    ]);
    now = new Date('2026-11-24T08:01:00Z');
    const base = httpPoster(fake.base);
    let fastDone!: () => void;
    const fastPosted = new Promise<void>((resolve) => (fastDone = resolve));
    // Channel 610 (first in order) cannot post until channel 620's whole digest is out: one channel at a time would never finish.
    const poster: typeof base = {
      findSent: base.findSent,
      async send(channelId, reply, o) {
        if (channelId === '610') await fastPosted;
        const sent = await base.send(channelId, reply, o);
        if (channelId === '620' && o.nonce === deliveryNonce('620', '2026-11-24', 2)) fastDone();
        return sent;
      },
    };
    const compose: ComposeDigest = async (_db, channel, key) =>
      ['610', '620'].includes(channel.channelId) ? parts(3, `${channel.channelId} ${key}`) : [];
    const counts = await deliverDigests(deps(), { poster, compose });
    expect(counts).toMatchObject({ messages: 6, failed: 0 });
    expect(fake.messages.filter((m) => m.channelId === '610').map((m) => m.body.content)).toEqual([
      '610 2026-11-24 part 1/3',
      '610 2026-11-24 part 2/3',
      '610 2026-11-24 part 3/3',
    ]);
    expect(fake.messages.filter((m) => m.channelId === '620')).toHaveLength(3);
  });
});

/**
 * Two processes on one database (two pools, as two `start`s would have): one's scheduled job and the
 * other's `/digest now` deliver the same channel's digest at once. Each part is claimed in Postgres
 * before it is sent, so one process sends it and the other leaves it alone; Discord's nonce is never
 * what stops a second post.
 */
describe('deliverDigests in two processes at once', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let fake: Awaited<ReturnType<typeof startFakeChannels>>;
  let now = new Date('2026-11-25T08:01:00Z');
  const processes: JobDeps[] = [];

  beforeAll(async () => {
    t = await createTestDb();
    fake = await startFakeChannels();
    for (const handle of [t, createDb(t.url)]) {
      processes.push(buildDeps({ ...handle, config: loadConfig({}), log: pino({ level: 'silent' }), now: () => now }));
    }
  });
  afterAll(() => processes[1]!.sql.end({ timeout: 5 }));

  /** The job of the first process sends the channel's digest, slowly; `/digest now` in `commandProcess` comes meanwhile. */
  async function race(channelId: string, commandProcess: JobDeps, day: string) {
    const jobProcess = processes[0]!;
    now = new Date(`${day}T08:01:00Z`);
    await t.db.insert(channels).values({ channelId, guildId: '1', postTime: '08:00', timezone: 'UTC' });
    const base = httpPoster(fake.base);
    // The job's first request is slow to reach Discord (rate limits, a slow network): /digest now comes meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inFlight!: () => void;
    const sending = new Promise<void>((resolve) => (inFlight = resolve));
    const slow: Poster = {
      findSent: base.findSent,
      async send(to, reply, o) {
        if (to === channelId) {
          inFlight();
          await gate;
        }
        return base.send(to, reply, o);
      },
    };
    const job = runJob(
      postDigestsJob({
        poster: slow,
        // The channels of the earlier cases post nothing more: only this one's digest is sent.
        compose: async (_db, c, key) => (c.channelId === channelId ? parts(3, `${c.channelId} ${key}`) : []),
      }),
      jobProcess,
    );
    await sending;
    const [row] = await t.db.select().from(channels).where(eq(channels.channelId, channelId));
    const reply = await postDigestNow(commandProcess, row!, base);
    release();
    expect((await job).status).toBe('ok');

    expect(fake.messages.filter((m) => m.channelId === channelId).map((m) => m.body.content)).toEqual([
      `${channelId} ${day} part 1/3`,
      `${channelId} ${day} part 2/3`,
      `${channelId} ${day} part 3/3`,
    ]);
    // One request per part: the other run sent nothing at all.
    expect(fake.posts.filter((p) => p.channelId === channelId).map((p) => p.nonce)).toEqual(
      [0, 1, 2].map((n) => deliveryNonce(channelId, day, n)),
    );
    expect(reply.content).toMatch(/is being posted by another run of the bot right now/);
    const final = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.channelId, channelId))
      .orderBy(asc(deliveries.part));
    expect(final.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  }

  it("sends each part once when the scheduled job and /digest now race on one digest: the second process leaves the first's parts to it", async () => {
    await race('630', processes[1]!, '2026-11-25');
  });

  it('sends each part once when the job and /digest now race in one process', async () => {
    await race('640', processes[0]!, '2026-11-26');
  });
});
