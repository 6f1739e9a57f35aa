/**
 * The subscription outbox (`notifications_sent`, one row per user and paper, ever): what
 * src/services/outbox/notices.ts reads and writes. A row is inserted `pending` before anything is
 * sent, marked `sending` (attempt counted) right before the send and `sent` after, so a crash
 * re-sends with the same nonce and the primary key forbids a second row for the same user and paper.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  notificationsSent,
  papers,
  subscribers,
  userSubscriptions,
  type NotificationSent,
  type Subscriber,
  type UserSubscription,
} from '../schema.ts';
import type { PlannedNotification } from '../../src/core/subscriptions/plan.ts';
import type { NotifiedPaper } from '../../src/core/subscriptions/notification.ts';
import { DEFAULT_SUBSCRIBER } from './subscriptions.ts';

/** Paper columns a match and a notification need. */
const paperColumns = {
  id: papers.id,
  arxivId: papers.arxivId,
  arxivVersion: papers.arxivVersion,
  title: papers.title,
  abstract: papers.abstract,
  authors: papers.authors,
  authorCount: papers.authorCount,
  organization: papers.organization,
  topics: papers.topics,
  families: papers.families,
  newsAt: papers.newsAt,
};
export type CandidatePaper = NotifiedPaper & { topics: string[]; families: string[]; newsAt: Date | null };

/** GRPO-family papers that became news in [since, until], newest first. */
export async function candidatePapers(db: Db, since: Date, until: Date): Promise<CandidatePaper[]> {
  return db
    .select(paperColumns)
    .from(papers)
    .where(
      and(eq(papers.grpoFamily, true), isNotNull(papers.newsAt), gte(papers.newsAt, since), lte(papers.newsAt, until)),
    )
    .orderBy(desc(papers.newsAt), desc(papers.id));
}

export interface SubscriberWithRules {
  userId: string;
  settings: Pick<Subscriber, 'mode' | 'channelId' | 'dailyCap' | 'guildId'>;
  rules: UserSubscription[];
}

/** Every user who follows something, with their delivery settings (defaults without a row). */
export async function subscribersWithRules(db: Db): Promise<SubscriberWithRules[]> {
  const rules = await db
    .select()
    .from(userSubscriptions)
    .orderBy(asc(userSubscriptions.userId), asc(userSubscriptions.id));
  if (rules.length === 0) return [];
  const userIds = [...new Set(rules.map((r) => r.userId))];
  const settings = new Map(
    (await db.select().from(subscribers).where(inArray(subscribers.userId, userIds))).map((s) => [s.userId, s]),
  );
  return userIds.map((userId) => {
    const mine = rules.filter((r) => r.userId === userId);
    const s = settings.get(userId);
    return {
      userId,
      rules: mine,
      settings: s ?? { ...DEFAULT_SUBSCRIBER, guildId: mine.find((r) => r.guildId)?.guildId ?? null },
    };
  });
}

/** Of these papers, the ones the user already has a row for (sent, failed or on its way). */
export async function notifiedPaperIds(db: Db, userId: string, paperIds: number[]): Promise<Set<number>> {
  if (paperIds.length === 0) return new Set();
  const rows = await db
    .select({ paperId: notificationsSent.paperId })
    .from(notificationsSent)
    .where(and(eq(notificationsSent.userId, userId), inArray(notificationsSent.paperId, paperIds)));
  return new Set(rows.map((r) => r.paperId));
}

/** Papers planned as their own message since `since` (the daily cap counts these, whatever became of them). */
export async function ownMessagesSince(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notificationsSent)
    .where(
      and(
        eq(notificationsSent.userId, userId),
        eq(notificationsSent.bundled, false),
        gte(notificationsSent.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

/** Writes the plan to the outbox before anything is sent; a row that already exists is left alone. */
export async function insertPlanned(
  db: Db,
  userId: string,
  via: 'dm' | 'channel',
  planned: PlannedNotification[],
  now: Date,
): Promise<number> {
  if (planned.length === 0) return 0;
  const rows = await db
    .insert(notificationsSent)
    .values(
      planned.map((p) => ({
        userId,
        paperId: p.paperId,
        via,
        bundled: p.bundled,
        nonce: p.nonce,
        status: 'pending',
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ paperId: notificationsSent.paperId });
  return rows.length;
}

export type UnsentNotification = NotificationSent & { paper: CandidatePaper };

/** The user's rows still to send (pending, or `sending` when a run died mid-send), oldest first. */
export async function unsentNotifications(db: Db, userId: string): Promise<UnsentNotification[]> {
  const rows = await db
    .select({ row: notificationsSent, paper: paperColumns })
    .from(notificationsSent)
    .innerJoin(papers, eq(papers.id, notificationsSent.paperId))
    .where(and(eq(notificationsSent.userId, userId), inArray(notificationsSent.status, ['pending', 'sending'])))
    .orderBy(
      asc(notificationsSent.createdAt),
      asc(notificationsSent.bundled),
      desc(papers.newsAt),
      asc(notificationsSent.paperId),
    );
  return rows.map((r) => ({ ...r.row, paper: r.paper }));
}

const rowsOf = (userId: string, paperIds: number[]) =>
  and(eq(notificationsSent.userId, userId), inArray(notificationsSent.paperId, paperIds));

/** Recorded right before the send, with the attempt counted. */
export async function markNoticeSending(db: Db, userId: string, paperIds: number[]): Promise<void> {
  await db
    .update(notificationsSent)
    .set({ status: 'sending', attempts: sql`${notificationsSent.attempts} + 1` })
    .where(rowsOf(userId, paperIds));
}

export async function markNoticeSent(
  db: Db,
  userId: string,
  paperIds: number[],
  via: 'dm' | 'channel',
  messageId: string,
  now: Date,
): Promise<void> {
  await db
    .update(notificationsSent)
    .set({ status: 'sent', via, messageId, sentAt: now, reason: null })
    .where(rowsOf(userId, paperIds));
}

/** A transient failure: due again on the next run. */
export async function markNoticeRetry(db: Db, userId: string, paperIds: number[], reason: string): Promise<void> {
  await db.update(notificationsSent).set({ status: 'pending', reason }).where(rowsOf(userId, paperIds));
}

/** Final: never sent, with the reason. */
export async function markNoticeFailed(db: Db, userId: string, paperIds: number[], reason: string): Promise<void> {
  await db.update(notificationsSent).set({ status: 'failed', reason }).where(rowsOf(userId, paperIds));
}
