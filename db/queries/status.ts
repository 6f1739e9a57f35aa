/** The figures `/status` and `/topics` show: counts only, read in a handful of aggregate queries. */
import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { channels, citationCounts, deliveries, papers } from '../schema.ts';

/**
 * Papers that became news since an instant (`news_at`), and how many of them are GRPO-family. Papers
 * stored quietly (the seed import, a backfill, a source's first poll) are not activity.
 */
export async function papersNewSince(db: Db, since: Date): Promise<{ news: number; family: number }> {
  const [row] = await db
    .select({
      news: sql<number>`count(*)::int`,
      family: sql<number>`count(*) filter (where ${papers.grpoFamily})::int`,
    })
    .from(papers)
    .where(gte(papers.newsAt, since));
  return { news: row?.news ?? 0, family: row?.family ?? 0 };
}

/** Digest messages delivered since an instant and ever. */
export async function digestMessagesSent(db: Db, since: Date): Promise<{ since: number; total: number }> {
  const [row] = await db
    .select({
      since: sql<number>`count(*) filter (where ${deliveries.sentAt} >= ${since.toISOString()}::timestamptz)::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(deliveries)
    .where(eq(deliveries.status, 'sent'));
  return { since: row?.since ?? 0, total: row?.total ?? 0 };
}

/** Digest channels: switched on, and of those, paused because the bot can no longer post there. */
export async function digestChannelCounts(db: Db): Promise<{ enabled: number; paused: number }> {
  const [row] = await db
    .select({
      enabled: sql<number>`count(*)::int`,
      paused: sql<number>`count(*) filter (where ${isNotNull(channels.deliveryError)})::int`,
    })
    .from(channels)
    .where(eq(channels.enabled, true));
  return { enabled: row?.enabled ?? 0, paused: row?.paused ?? 0 };
}

/**
 * How many papers are in the GRPO family: the one answer every command gives (/topics, /family list,
 * /status, /trends, the poll's summary line). `grpo_family` is a moderator's mark, else the judge, else
 * the filter, so a mark or a judge's decision changes every count at once. A command that counts less
 * (dated, this month, one family's members) says which part of this number it counts.
 */
export async function grpoFamilyCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(papers)
    .where(eq(papers.grpoFamily, true));
  return Number(row?.n ?? 0);
}

/** GRPO-family papers per topic slug (a paper counts once in each of its topics), and the family total. */
export async function familyTopicCounts(db: Db): Promise<{ total: number; byTopic: Map<string, number> }> {
  const total = await grpoFamilyCount(db);
  const rows = await db.execute<{ topic: string; n: number }>(sql`
    select t.topic, count(*)::int as n
    from ${papers} p, unnest(p.topics) as t(topic)
    where p.grpo_family
    group by t.topic`);
  return { total, byTopic: new Map(rows.map((r) => [r.topic, Number(r.n)])) };
}

/** What `/paper random` draws from: every GRPO-family paper (optionally in a topic) with the signals that weight it. */
export async function familyPaperPool(
  db: Db,
  topic?: string,
): Promise<
  { id: number; familyScore: number | null; hfUpvotes: number | null; hasNote: boolean; citationCount: number | null }[]
> {
  return db
    .select({
      id: papers.id,
      familyScore: papers.familyScore,
      hfUpvotes: papers.hfUpvotes,
      hasNote: sql<boolean>`exists (select 1 from notes n where n.paper_id = ${papers.id})`,
      citationCount: citationCounts.citationCount,
    })
    .from(papers)
    .leftJoin(citationCounts, eq(citationCounts.paperId, papers.id))
    .where(and(eq(papers.grpoFamily, true), topic ? sql`${topic} = any(${papers.topics})` : undefined))
    .orderBy(papers.id);
}
