/** The rows a channel's digest is composed from (src/services/outbox/channel-digest.ts puts them together): candidate papers with votes, feed health. */
import { and, arrayOverlaps, asc, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { citationCounts, papers, queueItems, votes } from '../schema.ts';
import { listFeedStates } from './feed-state.ts';
import type { DigestPaper, FeedHealth } from '../../src/core/digest/types.ts';

export interface CandidateQuery {
  guildId: string;
  since: Date;
  until: Date;
  topics: string[];
  minScore: number;
}

/** GRPO-family papers that became news in (since, until], in the topics (none = all), at or above minScore. */
export async function loadDigestCandidates(db: Db, q: CandidateQuery): Promise<DigestPaper[]> {
  const rows = await candidateRows(
    db,
    q.guildId,
    and(
      eq(papers.grpoFamily, true),
      gt(papers.newsAt, q.since),
      lte(papers.newsAt, q.until),
      gte(papers.familyScore, q.minScore),
      q.topics.length > 0 ? arrayOverlaps(papers.topics, q.topics) : undefined,
    ),
    [desc(papers.newsAt), asc(papers.id)],
  );
  return rows.map(({ s2Citations, s2Influential, s2FetchedAt, ...r }) => ({
    ...r,
    citations: s2FetchedAt
      ? { citationCount: s2Citations!, influentialCount: s2Influential!, fetchedAt: s2FetchedAt }
      : null,
    grpoFamily: true,
    familyScore: r.familyScore ?? 0,
    newsAt: r.newsAt ?? q.until,
    votes: Number(r.votes),
  }));
}

/**
 * A sample digest's papers, when nothing is new: the `limit` latest GRPO-family papers (by publication
 * date) in the channel's topics and score, whenever they were stored; `newsAt` is the given instant,
 * so they fall in the window being previewed.
 */
export async function loadSampleCandidates(
  db: Db,
  q: Omit<CandidateQuery, 'since'> & { limit: number },
): Promise<DigestPaper[]> {
  const rows = await candidateRows(
    db,
    q.guildId,
    and(
      eq(papers.grpoFamily, true),
      gte(papers.familyScore, q.minScore),
      q.topics.length > 0 ? arrayOverlaps(papers.topics, q.topics) : undefined,
    ),
    [sql`${papers.publishedOn} desc nulls last`, desc(papers.firstSeenAt), asc(papers.id)],
    q.limit,
  );
  return rows.map(({ s2Citations, s2Influential, s2FetchedAt, ...r }) => ({
    ...r,
    citations: s2FetchedAt
      ? { citationCount: s2Citations!, influentialCount: s2Influential!, fetchedAt: s2FetchedAt }
      : null,
    grpoFamily: true,
    familyScore: r.familyScore ?? 0,
    newsAt: q.until,
    votes: Number(r.votes),
  }));
}

async function candidateRows(db: Db, guildId: string, where: SQL | undefined, order: SQL[], limit?: number) {
  const guildVotes = db
    .select({ paperId: queueItems.paperId, n: sql<number>`count(${votes.userId})::int`.as('n') })
    .from(queueItems)
    .innerJoin(votes, eq(votes.queueItemId, queueItems.id))
    .where(eq(queueItems.guildId, guildId))
    .groupBy(queueItems.paperId)
    .as('guild_votes');
  const query = db
    .select({
      id: papers.id,
      arxivId: papers.arxivId,
      arxivVersion: papers.arxivVersion,
      title: papers.title,
      titleZh: papers.titleZh,
      authors: papers.authors,
      authorCount: papers.authorCount,
      organization: papers.organization,
      familyScore: papers.familyScore,
      families: papers.families,
      topics: papers.topics,
      hfUpvotes: papers.hfUpvotes,
      githubStars: papers.githubStars,
      githubUrl: papers.githubUrl,
      newsAt: papers.newsAt,
      votes: sql<number>`coalesce(${guildVotes.n}, 0)`,
      s2Citations: citationCounts.citationCount,
      s2Influential: citationCounts.influentialCount,
      s2FetchedAt: citationCounts.fetchedAt,
    })
    .from(papers)
    .leftJoin(guildVotes, eq(guildVotes.paperId, papers.id))
    .leftJoin(citationCounts, eq(citationCounts.paperId, papers.id))
    .where(where)
    .orderBy(...order);
  return limit === undefined ? query : query.limit(limit);
}

export async function loadFeedHealth(db: Db): Promise<FeedHealth[]> {
  return (await listFeedStates(db)).map((f) => ({
    feed: f.feed,
    health: f.health,
    healthDetail: f.healthDetail,
    lastNewCount: f.lastNewCount,
    lastFamilyCount: f.lastFamilyCount,
    lastSuccessAt: f.lastSuccessAt,
  }));
}
