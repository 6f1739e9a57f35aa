import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { guilds, papers, paperVersions, versionNotices } from '../../../../db/schema.ts';
import type { Notifier } from '../../../../src/core/delivery/notifier.ts';
import { DeliveryError } from '../../../../src/core/delivery/poster.ts';
import type { Reply } from '../../../../src/core/reply.ts';
import { versionNoticeNonce } from '../../../../src/core/subscriptions/version-notice.ts';
import { sendVersionNotices } from '../../../../src/services/outbox/version-notices.ts';
import { createTestDb } from '../../../helpers/db.ts';

interface Sent {
  kind: 'dm' | 'post';
  target: string;
  reply: Reply;
  nonce: string;
  pingUserIds?: string[];
}

describe('sendVersionNotices', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const now = new Date('2026-11-21T07:00:00Z');
  const deps = () => ({ db: t.db, log: pino({ level: 'silent' }), now: () => now });
  const sent: Sent[] = [];
  /** Per user: the errors their next DMs throw. */
  const dmFails = new Map<string, DeliveryError[]>();
  const notifier: Notifier = {
    async dm(userId, reply, { nonce }) {
      const err = dmFails.get(userId)?.shift();
      if (err) throw err;
      sent.push({ kind: 'dm', target: userId, reply, nonce });
      return { messageId: `m${sent.length}` };
    },
    async post(channelId, reply, { nonce, pingUserIds }) {
      sent.push({ kind: 'post', target: channelId, reply, nonce, pingUserIds });
      return { messageId: `m${sent.length}` };
    },
  };
  let paperId = 0;

  beforeAll(async () => {
    t = await createTestDb();
    const [p] = await t.db
      .insert(papers)
      .values({
        arxivId: '2611.04242',
        arxivVersion: 2,
        titleKey: 'x',
        title: 'Balanced @everyone Clipping',
        abstract: 'A.',
        rulesFamily: true,
      })
      .returning();
    paperId = p!.id;
    await t.db.insert(paperVersions).values({
      paperId,
      version: 2,
      title: 'Balanced @everyone Clipping',
      abstract: 'A.',
      note: 'v2 (2026-11-20): group size 8 -> 16',
      meaningful: true,
    });
    await t.db.insert(guilds).values({ guildId: 'g1', notifyChannelId: 'notices' });
    const row = (userId: string, reason: string) => ({
      userId,
      paperId,
      version: 2,
      reason,
      guildId: 'g1',
      nonce: versionNoticeNonce(userId, paperId, 2),
      createdAt: now,
    });
    await t.db.insert(versionNotices).values([row('ann', 'family'), row('bob', 'voter'), row('eve', 'voter')]);
  });

  it('sends each note once: a DM, the channel with only its user pinged when DMs are refused, a transient failure retried with the same nonce', async () => {
    dmFails.set('bob', [new DeliveryError('Discord 403 50007: Cannot send messages to this user', true)]);
    dmFails.set('eve', [new DeliveryError('Discord 502: Bad Gateway', false)]);
    expect(await sendVersionNotices(deps(), { notifier })).toEqual({ sent: 2, retrying: 1, failed: 0 });
    expect(sent.map((s) => [s.kind, s.target, s.pingUserIds])).toEqual([
      ['dm', 'ann', undefined],
      ['post', 'notices', ['bob']],
    ]);
    expect(sent[0]!.reply.content).toBe(
      'New version of [Balanced @\u200beveryone Clipping](<https://arxiv.org/abs/2611.04242>) (you follow its family): v2 (2026-11-20): group size 8 -> 16',
    );
    expect(sent[1]!.reply.content).toMatch(/^<@bob> New version of .* \(you voted for it in the reading-group queue\)/);

    expect(await sendVersionNotices(deps(), { notifier })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(sent.at(-1)).toMatchObject({ kind: 'dm', target: 'eve', nonce: versionNoticeNonce('eve', paperId, 2) });

    expect(await sendVersionNotices(deps(), { notifier })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sent).toHaveLength(3);
    const rows = await t.db.select().from(versionNotices).where(eq(versionNotices.paperId, paperId));
    expect(rows.map((r) => [r.userId, r.status, r.via, r.attempts]).sort()).toEqual([
      ['ann', 'sent', 'dm', 1],
      ['bob', 'sent', 'channel', 1],
      ['eve', 'sent', 'dm', 2],
    ]);
  });
});
