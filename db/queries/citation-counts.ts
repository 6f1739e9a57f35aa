/** Semantic Scholar's citation counts (`citation_counts`): what the refresh asks for, what it stores, what /status says. */
import { asc, eq, isNotNull, and, sql } from 'drizzle-orm';
import type { CitationCounts } from '../../src/core/papers/citation-counts.ts';
import type { Db } from '../client.ts';
import { citationCounts, papers } from '../schema.ts';

/**
 * The papers a refresh asks about: every GRPO-family paper with an arXiv id, the least recently
 * refreshed first (never refreshed before all), so a refresh stopped by rate limits starts
 * tomorrow where it stopped today.
 */
export async function citationTargets(db: Db): Promise<{ paperId: number; arxivId: string }[]> {
  const rows = await db
    .select({ paperId: papers.id, arxivId: papers.arxivId })
    .from(papers)
    .leftJoin(citationCounts, eq(citationCounts.paperId, papers.id))
    .where(and(eq(papers.grpoFamily, true), isNotNull(papers.arxivId)))
    .orderBy(sql`${citationCounts.fetchedAt} asc nulls first`, asc(papers.id));
  return rows.map((r) => ({ paperId: r.paperId, arxivId: r.arxivId! }));
}

export interface CitationCountsRow {
  paperId: number;
  s2PaperId: string | null;
  citationCount: number;
  influentialCount: number;
}

/** Stores one batch's counts, replacing the previous day's. */
export async function saveCitationCounts(db: Db, rows: readonly CitationCountsRow[], fetchedAt: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(citationCounts)
    .values(rows.map((r) => ({ ...r, fetchedAt })))
    .onConflictDoUpdate({
      target: citationCounts.paperId,
      set: {
        s2PaperId: sql`excluded.s2_paper_id`,
        citationCount: sql`excluded.citation_count`,
        influentialCount: sql`excluded.influential_count`,
        fetchedAt: sql`excluded.fetched_at`,
      },
    });
}

/** One paper's counts, for its card; undefined until Semantic Scholar gave them. */
export async function citationCountsOf(db: Db, paperId: number): Promise<CitationCounts | undefined> {
  const [row] = await db
    .select({
      citationCount: citationCounts.citationCount,
      influentialCount: citationCounts.influentialCount,
      fetchedAt: citationCounts.fetchedAt,
    })
    .from(citationCounts)
    .where(eq(citationCounts.paperId, paperId));
  return row;
}

/** For /status: GRPO-family papers with an arXiv id, how many of them have counts, and the newest and oldest figures. */
export async function citationCoverage(
  db: Db,
): Promise<{ family: number; withCounts: number; newest: Date | null; oldest: Date | null }> {
  const [row] = await db.execute<{
    family: number;
    with_counts: number;
    newest: string | null;
    oldest: string | null;
  }>(sql`
    select count(*)::int as family, count(c.paper_id)::int as with_counts,
           max(c.fetched_at) as newest, min(c.fetched_at) as oldest
    from ${papers} p left join ${citationCounts} c on c.paper_id = p.id
    where p.grpo_family and p.arxiv_id is not null`);
  const date = (v: string | Date | null | undefined) => (v ? new Date(v) : null);
  return {
    family: Number(row?.family ?? 0),
    withCounts: Number(row?.with_counts ?? 0),
    newest: date(row?.newest),
    oldest: date(row?.oldest),
  };
}
