/**
 * What a channel's digest is composed from: its settings, the candidate papers of its window with
 * this server's reading-group votes, the summary to show per paper, and the feeds' health. Reads
 * only; composing is src/digest/compose.ts (pure), posting is the delivery job's.
 */
import { and, arrayOverlaps, asc, desc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { papers, queueItems, votes, type Channel } from '../schema.ts';
import { getChannel } from './channels.ts';
import { listFeedStates } from './feed-state.ts';
import { selectPapers } from '../../src/digest/select.ts';
import type { DigestChannel, DigestInput, DigestLanguage, DigestPaper, DigestSummary, FeedHealth } from '../../src/digest/types.ts';
import { digestWindow, type DigestWindow } from '../../src/digest/window.ts';

/** The row's settings as the composer reads them; unknown stored values fall back to the defaults. */
export function toDigestChannel(row: Channel): DigestChannel {
  return {
    channelId: row.channelId,
    language: row.language === 'zh' ? 'zh' : 'en',
    cadence: row.cadence === 'weekly' ? 'weekly' : 'daily',
    topics: row.topics,
    maxPapers: row.maxPapers,
    minScore: row.minScore,
    quietDay: row.quietDay === 'notice' ? 'notice' : 'nothing',
    pingRoleId: row.pingRoleId,
    threadPerPaper: row.threadPerPaper,
  };
}

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

export interface ChannelDigest {
  channel: Channel;
  window: DigestWindow;
  input: DigestInput;
}

/**
 * Everything `composeDigest` needs for one channel: now, or (with `date`) as at the channel's post
 * time on that local date. Undefined when the channel has no digest configured. Summaries are
 * loaded only for the papers the digest will show.
 */
/** The summary to show per paper in a language (src/summarize/show.ts `digestSummaries`, passed in: db/ never imports the summariser). */
export type SummaryLoader = (db: Db, paperIds: number[], lang: DigestLanguage) => Promise<Map<number, DigestSummary>>;

export async function loadChannelDigest(db: Db, channelId: string, opts: { now: Date; date?: string }, summariesFor: SummaryLoader): Promise<ChannelDigest | undefined> {
  const row = await getChannel(db, channelId);
  if (!row) return undefined;
  const channel = toDigestChannel(row);
  const window = digestWindow(row, opts);
  const [candidates, feeds] = await Promise.all([
    loadDigestCandidates(db, { guildId: row.guildId, since: window.since, until: window.until, topics: channel.topics, minScore: channel.minScore }),
    loadFeedHealth(db),
  ]);
  const now = window.until;
  const { shown } = selectPapers(candidates, channel, window.since, now);
  const summaryMap = await summariesFor(db, shown.map((p) => p.id), channel.language);
  return { channel: row, window, input: { channel, date: window.date, now, since: window.since, papers: candidates, summaries: summaryMap, feeds } };
}
