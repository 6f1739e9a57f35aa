/** The rows a channel's digest is composed from (src/outbox/channel-digest.ts puts them together): candidate papers with votes, feed health. */
import { and, arrayOverlaps, asc, desc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { papers, queueItems, votes } from '../schema.ts';
import { listFeedStates } from './feed-state.ts';
import type { DigestPaper, FeedHealth } from '../../src/digest/types.ts';

export interface CandidateQuery {
  guildId: string;
  since: Date;
  until: Date;
  topics: string[];
  minScore: number;
}

/** GRPO-family papers that became news in (since, until], in the topics (none = all), at or above minScore. */
export async function loadDigestCandidates(db: Db, q: CandidateQuery): Promise<DigestPaper[]> {
  const guildVotes = db
    .select({ paperId: queueItems.paperId, n: sql<number>`count(${votes.userId})::int`.as('n') })
    .from(queueItems)
    .innerJoin(votes, eq(votes.queueItemId, queueItems.id))
    .where(eq(queueItems.guildId, q.guildId))
    .groupBy(queueItems.paperId)
    .as('guild_votes');
  const rows = await db
    .select({
      id: papers.id, arxivId: papers.arxivId, arxivVersion: papers.arxivVersion, title: papers.title, titleZh: papers.titleZh,
      authors: papers.authors, authorCount: papers.authorCount, organization: papers.organization, familyScore: papers.familyScore,
      families: papers.families, topics: papers.topics, hfUpvotes: papers.hfUpvotes, githubStars: papers.githubStars,
      githubUrl: papers.githubUrl, newsAt: papers.newsAt, votes: sql<number>`coalesce(${guildVotes.n}, 0)`,
    })
    .from(papers)
    .leftJoin(guildVotes, eq(guildVotes.paperId, papers.id))
    .where(and(
      eq(papers.grpoFamily, true),
      gt(papers.newsAt, q.since),
      lte(papers.newsAt, q.until),
      gte(papers.familyScore, q.minScore),
      q.topics.length > 0 ? arrayOverlaps(papers.topics, q.topics) : undefined,
    ))
    .orderBy(desc(papers.newsAt), asc(papers.id));
  return rows.map((r) => ({ ...r, grpoFamily: true, familyScore: r.familyScore ?? 0, newsAt: r.newsAt ?? q.until, votes: Number(r.votes) }));
}

export async function loadFeedHealth(db: Db): Promise<FeedHealth[]> {
  return (await listFeedStates(db)).map((f) => ({
    feed: f.feed, health: f.health, healthDetail: f.healthDetail, lastNewCount: f.lastNewCount,
    lastFamilyCount: f.lastFamilyCount, lastSuccessAt: f.lastSuccessAt,
  }));
}
