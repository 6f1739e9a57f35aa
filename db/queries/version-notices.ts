/**
 * The outbox of version notes (`version_notices`, one row per user, paper and version, ever): who is
 * told of a meaningful new version, and what src/services/outbox/version-notices.ts sends. The
 * primary key forbids a second row, so planning twice (a re-run, two replicas) tells nobody twice.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { papers, paperVersions, subscribers, versionNotices, type Subscriber, type VersionNotice } from '../schema.ts';

export type VersionRecipient = {
  userId: string;
  reason: 'family' | 'voter';
  guildId: string | null;
};

/**
 * Who hears of a new version: users following one of the paper's families, and users who voted for
 * it in a reading-group queue (not removed), each once (a family follower first); not those who
 * turned notices off.
 */
export async function versionRecipients(db: DbOrTx, paperId: number): Promise<VersionRecipient[]> {
  return db.execute<VersionRecipient>(sql`
    select distinct on (r.user_id) r.user_id as "userId", r.reason, r.guild_id as "guildId"
    from (
      select s.user_id, 'family' as reason, s.guild_id, 0 as ord
      from user_subscriptions s join papers p on p.id = ${paperId}
      where s.kind = 'family' and lower(s.value) in (select lower(f) from unnest(p.families) f)
      union all
      select v.user_id, 'voter', q.guild_id, 1
      from votes v join queue_items q on q.id = v.queue_item_id
      where q.paper_id = ${paperId} and q.status <> 'removed'
    ) r
    left join subscribers sb on sb.user_id = r.user_id
    where coalesce(sb.mode, 'dm') <> 'off'
    order by r.user_id, r.ord, r.guild_id nulls last`);
}

export async function insertVersionNotices(
  db: DbOrTx,
  rows: { userId: string; paperId: number; version: number; reason: string; guildId: string | null; nonce: string }[],
  now: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await db
    .insert(versionNotices)
    .values(rows.map((r) => ({ ...r, createdAt: now })))
    .onConflictDoNothing()
    .returning({ userId: versionNotices.userId });
  return added.length;
}

export type UnsentVersionNotice = VersionNotice & {
  paper: { id: number; arxivId: string | null; arxivVersion: number | null; title: string };
  note: string | null;
  settings: Pick<Subscriber, 'mode' | 'channelId' | 'guildId'> | null;
};

/** Every row still to send (pending, or `sending` when a run died mid-send), by user, oldest first. */
export async function unsentVersionNotices(db: Db): Promise<UnsentVersionNotice[]> {
  const rows = await db
    .select({
      row: versionNotices,
      paper: { id: papers.id, arxivId: papers.arxivId, arxivVersion: papers.arxivVersion, title: papers.title },
      note: paperVersions.note,
      settings: { mode: subscribers.mode, channelId: subscribers.channelId, guildId: subscribers.guildId },
    })
    .from(versionNotices)
    .innerJoin(papers, eq(papers.id, versionNotices.paperId))
    .innerJoin(
      paperVersions,
      and(eq(paperVersions.paperId, versionNotices.paperId), eq(paperVersions.version, versionNotices.version)),
    )
    .leftJoin(subscribers, eq(subscribers.userId, versionNotices.userId))
    .where(inArray(versionNotices.status, ['pending', 'sending']))
    .orderBy(asc(versionNotices.userId), asc(versionNotices.createdAt), asc(versionNotices.paperId));
  return rows.map((r) => ({
    ...r.row,
    paper: r.paper,
    note: r.note,
    settings: r.settings?.mode ? (r.settings as UnsentVersionNotice['settings']) : null,
  }));
}

type Key = Pick<VersionNotice, 'userId' | 'paperId' | 'version'>;
const rowOf = (k: Key) =>
  and(
    eq(versionNotices.userId, k.userId),
    eq(versionNotices.paperId, k.paperId),
    eq(versionNotices.version, k.version),
  );

/** Right before the send, with the attempt counted. */
export async function markVersionNoticeSending(db: Db, k: Key): Promise<void> {
  await db
    .update(versionNotices)
    .set({ status: 'sending', attempts: sql`${versionNotices.attempts} + 1` })
    .where(rowOf(k));
}

export async function markVersionNoticeSent(
  db: Db,
  k: Key,
  via: 'dm' | 'channel',
  messageId: string,
  now: Date,
): Promise<void> {
  await db.update(versionNotices).set({ status: 'sent', via, messageId, sentAt: now, error: null }).where(rowOf(k));
}

/** Transient: due again on the next run (`final` false), or failed for good. */
export async function markVersionNoticeFailed(db: Db, k: Key, error: string, final: boolean): Promise<void> {
  await db
    .update(versionNotices)
    .set({ status: final ? 'failed' : 'pending', error })
    .where(rowOf(k));
}
