/**
 * The reading-group queue: one `queue_items` row per server and paper (unique), one `votes` row per
 * item and user (primary key), so the database itself forbids a second vote or a second entry.
 *
 * Concurrency: everything that changes an item first takes its row lock (the upsert of `openItem`
 * locks the row whether or not it changes it), so presses on the same paper run one after another
 * and each sees the previous one's vote; counts are read under that lock, so the count a voter is
 * told equals the rows. Moderator actions (next, done, remove) also take a per-server advisory lock,
 * so two moderators never schedule the same paper or both "take the top" at once.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../client.ts';
import { papers, queueItems, votes, type QueueItem } from '../schema.ts';
export type QueueStatus = 'queued' | 'scheduled' | 'done' | 'removed';

export interface QueueKey {
  guildId: string;
  paperId: number;
}

/** A queue entry as the lists show it: the item, its vote count, and what the TL;DR is chosen from. */
export interface QueueEntry {
  id: number;
  paperId: number;
  nominatedBy: string;
  nominatedAt: Date;
  status: string;
  scheduledFor: string | null;
  doneAt: Date | null;
  votes: number;
  paper: {
    id: number;
    arxivId: string | null;
    title: string;
    abstract: string;
    abstractZh: string | null;
    aiSummary: string | null;
  };
}

/** Advisory-lock class of the queue's moderator actions (the two-int form, apart from the jobs' one-key locks). */
const QUEUE_LOCK_CLASS = 7_301;

const voteCount = sql<number>`count(${votes.userId})::int`;

const entryColumns = {
  id: queueItems.id,
  paperId: queueItems.paperId,
  nominatedBy: queueItems.nominatedBy,
  nominatedAt: queueItems.nominatedAt,
  status: queueItems.status,
  scheduledFor: queueItems.scheduledFor,
  doneAt: queueItems.doneAt,
  votes: voteCount,
  paper: {
    id: papers.id,
    arxivId: papers.arxivId,
    title: papers.title,
    abstract: papers.abstract,
    abstractZh: papers.abstractZh,
    aiSummary: papers.aiSummary,
  },
};

async function countVotes(tx: Tx, itemId: number): Promise<number> {
  const [row] = await tx.select({ n: voteCount }).from(votes).where(eq(votes.queueItemId, itemId));
  return row?.n ?? 0;
}

/**
 * The server's item for a paper, created (nominated by `userId`) when there is none and reopened as a
 * fresh nomination when a moderator had removed it; returned locked for the rest of the transaction.
 * Read papers stay read: their row is returned unchanged.
 */
async function openItem(
  tx: Tx,
  k: QueueKey,
  userId: string,
  now: Date,
): Promise<{ item: QueueItem; nominated: boolean }> {
  const written = await tx
    .insert(queueItems)
    .values({ guildId: k.guildId, paperId: k.paperId, nominatedBy: userId, nominatedAt: now })
    .onConflictDoUpdate({
      target: [queueItems.guildId, queueItems.paperId],
      set: {
        status: 'queued',
        nominatedBy: userId,
        nominatedAt: now,
        scheduledFor: null,
        doneAt: null,
        announcementMessageId: null,
        threadId: null,
      },
      setWhere: eq(queueItems.status, 'removed'),
    })
    .returning({ id: queueItems.id });
  const [item] = await tx
    .select()
    .from(queueItems)
    .where(and(eq(queueItems.guildId, k.guildId), eq(queueItems.paperId, k.paperId)))
    .for('update');
  return { item: item!, nominated: written.length > 0 };
}

export type VoteOutcome =
  { kind: 'voted' | 'unvoted'; item: QueueItem; votes: number; nominated: boolean } | { kind: 'read'; item: QueueItem };

/**
 * A press of "Vote for reading group" (or `/queue vote`): adds the user's vote, or removes it when
 * they had voted. A paper not in the queue is nominated by the voter. A paper already read is left alone.
 */
export async function toggleVote(db: Db, k: QueueKey, userId: string, now: Date): Promise<VoteOutcome> {
  return db.transaction(async (tx) => {
    const { item, nominated } = await openItem(tx, k, userId, now);
    if (item.status === 'done') return { kind: 'read', item };
    const removed = await tx
      .delete(votes)
      .where(and(eq(votes.queueItemId, item.id), eq(votes.userId, userId)))
      .returning({ userId: votes.userId });
    if (removed.length === 0)
      await tx.insert(votes).values({ queueItemId: item.id, userId, createdAt: now }).onConflictDoNothing();
    return { kind: removed.length ? 'unvoted' : 'voted', item, votes: await countVotes(tx, item.id), nominated };
  });
}

export type NominateOutcome =
  | { kind: 'nominated' | 'queued'; item: QueueItem; votes: number; newVote: boolean }
  | { kind: 'read'; item: QueueItem };

/**
 * `/queue add`: puts the paper in the queue (nominated by the user) and counts the user's vote.
 * Unlike a vote press it never takes a vote back, so adding twice is harmless.
 */
export async function nominate(db: Db, k: QueueKey, userId: string, now: Date): Promise<NominateOutcome> {
  return db.transaction(async (tx) => {
    const { item, nominated } = await openItem(tx, k, userId, now);
    if (item.status === 'done') return { kind: 'read', item };
    const added = await tx
      .insert(votes)
      .values({ queueItemId: item.id, userId, createdAt: now })
      .onConflictDoNothing()
      .returning({ userId: votes.userId });
    return {
      kind: nominated ? 'nominated' : 'queued',
      item,
      votes: await countVotes(tx, item.id),
      newVote: added.length > 0,
    };
  });
}

/** One page of entries in one state: the queue by votes then nomination time, the scheduled by date, history newest first. */
export async function queueEntries(
  db: Db,
  guildId: string,
  status: QueueStatus,
  page: { limit: number; offset: number },
): Promise<{ entries: QueueEntry[]; hasMore: boolean; total: number }> {
  const order = {
    queued: [desc(voteCount), asc(queueItems.nominatedAt), asc(queueItems.id)],
    scheduled: [sql`${queueItems.scheduledFor} asc nulls last`, asc(queueItems.id)],
    done: [sql`${queueItems.doneAt} desc nulls last`, desc(queueItems.id)],
    removed: [asc(queueItems.id)],
  }[status];
  const where = and(eq(queueItems.guildId, guildId), eq(queueItems.status, status));
  const [rows, [total]] = await Promise.all([
    db
      .select(entryColumns)
      .from(queueItems)
      .innerJoin(papers, eq(papers.id, queueItems.paperId))
      .leftJoin(votes, eq(votes.queueItemId, queueItems.id))
      .where(where)
      .groupBy(queueItems.id, papers.id)
      .orderBy(...order)
      .limit(page.limit + 1)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(queueItems)
      .where(where),
  ]);
  return { entries: rows.slice(0, page.limit), hasMore: rows.length > page.limit, total: total?.n ?? 0 };
}

/** Who voted for an item, earliest first. */
async function votersOf(tx: Tx, itemId: number): Promise<string[]> {
  const rows = await tx
    .select({ userId: votes.userId })
    .from(votes)
    .where(eq(votes.queueItemId, itemId))
    .orderBy(asc(votes.createdAt), asc(votes.userId));
  return rows.map((r) => r.userId);
}

async function lockGuild(tx: Tx, guildId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${QUEUE_LOCK_CLASS}, hashtext(${guildId}))`);
}

/**
 * `/queue next`: the top of the queue (most votes, then earliest nomination) becomes the session of
 * `date`. Returns it with its voters, or undefined when the queue is empty.
 */
export async function scheduleTop(
  db: Db,
  guildId: string,
  date: string,
): Promise<{ item: QueueItem; voters: string[] } | undefined> {
  return db.transaction(async (tx) => {
    await lockGuild(tx, guildId);
    const [top] = await tx
      .select({ id: queueItems.id })
      .from(queueItems)
      .leftJoin(votes, eq(votes.queueItemId, queueItems.id))
      .where(and(eq(queueItems.guildId, guildId), eq(queueItems.status, 'queued')))
      .groupBy(queueItems.id)
      .orderBy(desc(voteCount), asc(queueItems.nominatedAt), asc(queueItems.id))
      .limit(1);
    if (!top) return undefined;
    const [item] = await tx
      .update(queueItems)
      .set({ status: 'scheduled', scheduledFor: date })
      .where(eq(queueItems.id, top.id))
      .returning();
    return { item: item!, voters: await votersOf(tx, top.id) };
  });
}

/** Remembers where the announcement of a session was posted. */
export async function setAnnouncement(db: Db, itemId: number, messageId: string): Promise<void> {
  await db.update(queueItems).set({ announcementMessageId: messageId }).where(eq(queueItems.id, itemId));
}

export type DoneOutcome =
  | { kind: 'done'; item: QueueItem }
  | { kind: 'nothing-scheduled' | 'not-queued' }
  | { kind: 'already-read'; item: QueueItem };

/**
 * `/queue done`: the paper (scheduled or still queued), or else the earliest scheduled session,
 * is marked read. It leaves the queue and shows in the history; its votes are kept there.
 */
export async function markRead(db: Db, guildId: string, paperId: number | undefined, now: Date): Promise<DoneOutcome> {
  return db.transaction(async (tx) => {
    await lockGuild(tx, guildId);
    const [target] =
      paperId === undefined
        ? await tx
            .select()
            .from(queueItems)
            .where(and(eq(queueItems.guildId, guildId), eq(queueItems.status, 'scheduled')))
            .orderBy(sql`${queueItems.scheduledFor} asc nulls last`, asc(queueItems.id))
            .limit(1)
        : await tx
            .select()
            .from(queueItems)
            .where(and(eq(queueItems.guildId, guildId), eq(queueItems.paperId, paperId)));
    if (!target) return { kind: paperId === undefined ? 'nothing-scheduled' : 'not-queued' };
    if (target.status === 'done') return { kind: 'already-read', item: target };
    if (target.status === 'removed') return { kind: 'not-queued' };
    const [item] = await tx
      .update(queueItems)
      .set({ status: 'done', doneAt: now })
      .where(eq(queueItems.id, target.id))
      .returning();
    return { kind: 'done', item: item! };
  });
}

export type RemoveOutcome =
  | { kind: 'removed'; item: QueueItem; votes: number }
  | { kind: 'not-queued' }
  | { kind: 'already-read'; item: QueueItem };

/**
 * `/queue remove`: the paper leaves the queue (or its scheduled session) and its votes are dropped,
 * so a later vote or nomination starts it afresh. Read papers stay in the history.
 */
export async function removeFromQueue(db: Db, k: QueueKey): Promise<RemoveOutcome> {
  return db.transaction(async (tx) => {
    await lockGuild(tx, k.guildId);
    const [target] = await tx
      .select()
      .from(queueItems)
      .where(and(eq(queueItems.guildId, k.guildId), eq(queueItems.paperId, k.paperId)))
      .for('update');
    if (!target || target.status === 'removed') return { kind: 'not-queued' };
    if (target.status === 'done') return { kind: 'already-read', item: target };
    const dropped = await tx.delete(votes).where(eq(votes.queueItemId, target.id)).returning({ userId: votes.userId });
    const [item] = await tx
      .update(queueItems)
      .set({ status: 'removed', scheduledFor: null })
      .where(eq(queueItems.id, target.id))
      .returning();
    return { kind: 'removed', item: item!, votes: dropped.length };
  });
}
