import { and, asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscribersWithRules, candidatePapers } from '../../../../db/queries/notifications.ts';
import { guilds, notificationsSent, papers, subscribers, userSubscriptions } from '../../../../db/schema.ts';
import { notifySubscribers, planForSubscriber, type NotifyDeps } from '../../../../src/services/outbox/notices.ts';
import type { Notifier } from '../../../../src/core/delivery/notifier.ts';
import { DeliveryError } from '../../../../src/core/delivery/poster.ts';
import type { Reply } from '../../../../src/core/reply.ts';
import { createTestDb } from '../../../helpers/db.ts';

interface Sent {
  kind: 'dm' | 'post';
  target: string;
  reply: Reply;
  nonce: string;
  pingUserIds?: string[];
}

/** Records what it sends; like Discord, a nonce seen before returns the first message. Failures are scripted per user or channel. */
function recordingNotifier() {
  const sent: Sent[] = [];
  const byNonce = new Map<string, string>();
  const fail = new Map<string, DeliveryError[]>();
  const attempt = (target: string) => {
    const queued = fail.get(target);
    const err = queued?.length === 1 && queued[0]!.permanent ? queued[0] : queued?.shift();
    if (err) throw err;
  };
  const record = (s: Sent) => {
    const key = `${s.target}|${s.nonce}`;
    if (!byNonce.has(key)) {
      sent.push(s);
      byNonce.set(key, String(sent.length));
    }
    return { messageId: byNonce.get(key)! };
  };
  const notifier: Notifier = {
    async dm(userId, reply, { nonce }) {
      attempt(userId);
      return record({ kind: 'dm', target: userId, reply, nonce });
    },
    async post(channelId, reply, { nonce, pingUserIds }) {
      attempt(channelId);
      return record({ kind: 'post', target: channelId, reply, nonce, pingUserIds });
    },
  };
  return { notifier, sent, fail };
}

const refused = () => new DeliveryError('Discord 403 50007: Cannot send messages to this user', true);
const outage = () => new DeliveryError('Discord 502: Bad Gateway', false);

describe('notifySubscribers', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let now = new Date('2026-11-21T07:00:00Z');
  const deps = (): NotifyDeps => ({ db: t.db, log: pino({ level: 'silent' }), now: () => now });
  const ids = new Map<string, number>();
  let n = 0;
  /** A GRPO-family paper that became news at `newsAt`. */
  const addPaper = async (key: string, newsAt: string | null, over: Partial<typeof papers.$inferInsert> = {}) => {
    const [row] = await t.db
      .insert(papers)
      .values({
        arxivId: `2611.0${String(++n).padStart(4, '0')}`,
        title: `Paper ${key}`,
        titleKey: `paper${key}${n}`,
        abstract: 'A GRPO variant for math reasoning.',
        rulesFamily: true,
        families: ['GRPO'],
        topics: ['algorithm'],
        newsAt: newsAt ? new Date(newsAt) : null,
        ...over,
      })
      .returning();
    ids.set(key, row!.id);
    return row!.id;
  };
  const follow = (
    userId: string,
    kind: string,
    value: string,
    createdAt: string,
    over: Partial<typeof userSubscriptions.$inferInsert> = {},
  ) =>
    t.db
      .insert(userSubscriptions)
      .values({ userId, kind, value, createdAt: new Date(createdAt), guildId: 'g1', ...over });
  const rowsOf = (userId: string) =>
    t.db
      .select()
      .from(notificationsSent)
      .where(eq(notificationsSent.userId, userId))
      .orderBy(asc(notificationsSent.paperId));
  const titles = (r: Reply) => (r.embeds ?? []).map((e) => e.title);

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.insert(guilds).values({ guildId: 'g1', notifyChannelId: '900' });
  });

  it('sends each matching paper once per user, across runs', async () => {
    await follow('alice', 'keyword', 'clip-higher', '2026-11-01T00:00:00Z', { exclude: 'diffusion' });
    await follow('alice', 'family', 'DAPO', '2026-11-01T00:00:00Z');
    await follow('bob', 'family', 'DAPO', '2026-11-01T00:00:00Z');
    await addPaper('dapo', '2026-11-21T06:20:00Z', {
      families: ['DAPO', 'GRPO'],
      abstract: 'We use Clip-Higher to keep entropy up.',
    });
    await addPaper('clip', '2026-11-21T06:20:00Z', { abstract: 'Clip higher bounds for stable RL.' });
    await addPaper('excluded', '2026-11-21T06:20:00Z', { abstract: 'Clip-Higher for diffusion models.' });
    await addPaper('unrelated', '2026-11-21T06:20:00Z');
    await addPaper('not-family', '2026-11-21T06:20:00Z', { rulesFamily: false, families: ['DAPO'] });
    const { notifier, sent } = recordingNotifier();

    const first = await notifySubscribers(deps(), { notifier });
    expect(first).toMatchObject({ subscribers: 2, planned: 3, messages: 3, failed: 0 });
    expect(
      sent
        .filter((s) => s.target === 'alice')
        .flatMap((s) => titles(s.reply))
        .sort(),
    ).toEqual(['Paper clip', 'Paper dapo']);
    expect(sent.filter((s) => s.target === 'bob').flatMap((s) => titles(s.reply))).toEqual(['Paper dapo']);
    expect(sent.every((s) => s.kind === 'dm')).toBe(true);
    const dapo = sent.find((s) => s.target === 'alice' && titles(s.reply)[0] === 'Paper dapo')!;
    expect(dapo.reply.embeds![0]!.fields![0]!.value).toMatch(/`keyword:clip-higher`, `family:DAPO`/);
    expect((await rowsOf('alice')).map((r) => r.status)).toEqual(['sent', 'sent']);

    now = new Date('2026-11-21T19:00:00Z');
    expect(await notifySubscribers(deps(), { notifier })).toMatchObject({ planned: 0, messages: 0 });
    expect(sent).toHaveLength(3);
  });

  it('never sends papers announced before the subscription, nor older than three days', async () => {
    await follow('carol', 'topic', 'algorithm', '2026-11-21T12:00:00Z');
    await addPaper('fresh', '2026-11-21T18:00:00Z');
    await addPaper('old', '2026-11-17T06:20:00Z');
    await follow('carol', 'family', 'GSPO', '2026-11-10T00:00:00Z');
    await addPaper('old-gspo', '2026-11-17T06:20:00Z', { families: ['GSPO'] });
    const { notifier, sent } = recordingNotifier();
    await notifySubscribers(deps(), { notifier });
    expect(sent.filter((s) => s.target === 'carol').flatMap((s) => titles(s.reply))).toEqual(['Paper fresh']);
  });

  it('sends once after a crash between writing the outbox and sending, and once after a crash after the send', async () => {
    await follow('dave', 'family', 'VAPO', '2026-11-01T00:00:00Z');
    await addPaper('vapo1', '2026-11-21T18:30:00Z', { families: ['VAPO'] });
    await addPaper('vapo2', '2026-11-21T18:30:00Z', { families: ['VAPO'] });
    // The run that crashed planned the rows and sent nothing.
    const dave = (await subscribersWithRules(t.db)).find((s) => s.userId === 'dave')!;
    const papersNow = await candidatePapers(t.db, new Date(now.getTime() - 3 * 86_400_000), now);
    expect(await planForSubscriber(deps(), dave, papersNow, now)).toBe(2);
    expect(await planForSubscriber(deps(), dave, papersNow, now)).toBe(0); // planning again adds nothing
    expect((await rowsOf('dave')).map((r) => r.status)).toEqual(['pending', 'pending']);
    // Another crash: Discord accepted the first message but the row still says `sending`.
    const { notifier, sent } = recordingNotifier();
    const [first] = await rowsOf('dave');
    await notifier.dm('dave', { content: 'accepted before the crash' }, { nonce: first!.nonce! });
    await t.db
      .update(notificationsSent)
      .set({ status: 'sending', attempts: 1 })
      .where(and(eq(notificationsSent.userId, 'dave'), eq(notificationsSent.paperId, first!.paperId)));

    await notifySubscribers(deps(), { notifier });
    expect(sent.filter((s) => s.target === 'dave')).toHaveLength(2); // the re-sent one came back as the first message
    expect((await rowsOf('dave')).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 2],
      ['sent', 1],
    ]);
    await notifySubscribers(deps(), { notifier });
    expect(sent.filter((s) => s.target === 'dave')).toHaveLength(2);
  });

  it('sends up to the daily cap on their own and bundles the rest into one message', async () => {
    await follow('erin', 'family', 'GMPO', '2026-11-01T00:00:00Z');
    await t.db.insert(subscribers).values({ userId: 'erin', guildId: 'g1', dailyCap: 2 });
    for (const k of [1, 2, 3, 4, 5]) await addPaper(`gmpo${k}`, `2026-11-21T18:4${k}:00Z`, { families: ['GMPO'] });
    const { notifier, sent } = recordingNotifier();
    await notifySubscribers(deps(), { notifier });
    const mine = sent.filter((s) => s.target === 'erin');
    expect(mine).toHaveLength(3);
    expect(mine.slice(0, 2).flatMap((s) => titles(s.reply))).toEqual(['Paper gmpo5', 'Paper gmpo4']);
    expect(mine[2]!.reply.content).toBe('And 3 more matching papers today (over your daily cap of 2):');
    expect(mine[2]!.reply.embeds![0]!.description).toMatch(/Paper gmpo3[\s\S]*Paper gmpo2[\s\S]*Paper gmpo1/);
    const rows = await rowsOf('erin');
    expect(rows.filter((r) => r.bundled)).toHaveLength(3);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    // Later the same day the cap is used up: a new match is bundled on its own.
    await addPaper('gmpo6', '2026-11-21T18:50:00Z', { families: ['GMPO'] });
    await notifySubscribers(deps(), { notifier });
    expect(sent.filter((s) => s.target === 'erin').at(-1)!.reply.content).toMatch(/^And 1 more matching paper today/);
  });

  it('sends nothing in mode off', async () => {
    await follow('frank', 'family', 'GiGPO', '2026-11-01T00:00:00Z');
    await t.db.insert(subscribers).values({ userId: 'frank', guildId: 'g1', mode: 'off' });
    await addPaper('gigpo', '2026-11-21T18:55:00Z', { families: ['GiGPO'] });
    const { notifier, sent } = recordingNotifier();
    expect(await notifySubscribers(deps(), { notifier })).toMatchObject({ off: 1 });
    expect(sent.filter((s) => s.target === 'frank')).toEqual([]);
    expect(await rowsOf('frank')).toEqual([]);
  });

  it('posts a mention in the chosen channel in channel mode', async () => {
    await follow('gina', 'family', 'RLOO', '2026-11-01T00:00:00Z');
    await t.db.insert(subscribers).values({ userId: 'gina', guildId: 'g1', mode: 'channel', channelId: '901' });
    await addPaper('rloo', '2026-11-21T18:56:00Z', { families: ['RLOO'] });
    const { notifier, sent } = recordingNotifier();
    await notifySubscribers(deps(), { notifier });
    const [post] = sent.filter((s) => s.target === '901');
    expect(post).toMatchObject({ kind: 'post', pingUserIds: ['gina'] });
    expect(post!.reply.content).toMatch(/^<@gina> A new paper matches/);
    expect((await rowsOf('gina'))[0]).toMatchObject({ status: 'sent', via: 'channel' });
  });

  it("falls back to the server's channel when DMs are refused, with a mention of that user only", async () => {
    await follow('hank', 'family', 'CISPO', '2026-11-01T00:00:00Z');
    for (const k of [1, 2]) await addPaper(`cispo${k}`, '2026-11-21T18:57:00Z', { families: ['CISPO'] });
    const { notifier, sent, fail } = recordingNotifier();
    fail.set('hank', [refused()]);
    const counts = await notifySubscribers(deps(), { notifier });
    expect(counts.fallbacks).toBe(2);
    const posts = sent.filter((s) => s.target === '900');
    expect(posts).toHaveLength(2);
    expect(posts.every((p) => p.pingUserIds!.join() === 'hank' && p.reply.content!.startsWith('<@hank> '))).toBe(true);
    expect((await rowsOf('hank')).map((r) => [r.status, r.via])).toEqual([
      ['sent', 'channel'],
      ['sent', 'channel'],
    ]);
  });

  it('records a permanent failure with its reason and never retries it', async () => {
    await follow('ivan', 'family', 'TreeRPO', '2026-11-01T00:00:00Z', { guildId: null });
    await addPaper('treerpo', '2026-11-21T18:58:00Z', { families: ['TreeRPO'] });
    const { notifier, sent, fail } = recordingNotifier();
    fail.set('ivan', [refused()]);
    expect(await notifySubscribers(deps(), { notifier })).toMatchObject({ failed: 1 });
    const [row] = await rowsOf('ivan');
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason: expect.stringMatching(/50007.*no channel to fall back to/),
    });
    fail.delete('ivan');
    await notifySubscribers(deps(), { notifier });
    expect(sent.filter((s) => s.target === 'ivan')).toEqual([]);
    expect((await rowsOf('ivan'))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('retries a transient failure on the next run, at most three attempts in all', async () => {
    await follow('judy', 'family', 'ReMax', '2026-11-01T00:00:00Z');
    await addPaper('remax', '2026-11-21T18:59:00Z', { families: ['ReMax'] });
    const { notifier, sent, fail } = recordingNotifier();
    fail.set('judy', [outage(), outage(), outage(), outage()]);
    expect(await notifySubscribers(deps(), { notifier })).toMatchObject({ retrying: 1 });
    expect((await rowsOf('judy'))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      reason: expect.stringMatching(/502/),
    });
    await notifySubscribers(deps(), { notifier });
    expect(await notifySubscribers(deps(), { notifier })).toMatchObject({ failed: 1 });
    expect((await rowsOf('judy'))[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      reason: expect.stringMatching(/gave up after 3 attempts/),
    });
    await notifySubscribers(deps(), { notifier });
    expect((await rowsOf('judy'))[0]!.attempts).toBe(3);
    expect(sent.filter((s) => s.target === 'judy')).toEqual([]);

    // One outage, then it goes through on the next run.
    await follow('kate', 'family', 'ReMax', '2026-11-01T00:00:00Z');
    const other = recordingNotifier();
    other.fail.set('kate', [outage()]);
    await notifySubscribers(deps(), { notifier: other.notifier });
    await notifySubscribers(deps(), { notifier: other.notifier });
    expect(other.sent.filter((s) => s.target === 'kate')).toHaveLength(1);
    expect((await rowsOf('kate'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
