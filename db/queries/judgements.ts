/** Storage for the relevance judge (src/services/relevance/judge.ts decides what to ask and what to keep). */
import { and, eq, gte, isNotNull, isNull, lte, ne, notExists, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { familyJudgements, papers, type FamilyJudgement, type Paper } from '../schema.ts';

/**
 * Papers the judge should read: first seen since `since`, classified by the filter with a score in
 * [min, max], not marked by a moderator, with an abstract, and not yet judged under this version.
 * Newest first.
 */
export async function judgeCandidates(
  db: Db,
  q: { since: Date; judgeVersion: string; min: number; max: number; limit: number },
): Promise<Paper[]> {
  return db
    .select()
    .from(papers)
    .where(
      and(
        gte(papers.firstSeenAt, q.since),
        isNull(papers.familyMark),
        isNotNull(papers.rulesScore),
        gte(papers.rulesScore, q.min),
        lte(papers.rulesScore, q.max),
        ne(papers.abstract, ''),
        notExists(
          db
            .select({ one: sql`1` })
            .from(familyJudgements)
            .where(and(eq(familyJudgements.paperId, papers.id), eq(familyJudgements.judgeVersion, q.judgeVersion))),
        ),
      ),
    )
    .orderBy(sql`${papers.firstSeenAt} desc`, sql`${papers.id} desc`)
    .limit(q.limit);
}

export type NewJudgement = typeof familyJudgements.$inferInsert & { createdAt: Date };

/**
 * Stores a judgement once per paper and version and, when it is a decision, the paper's judge
 * verdict: in the family puts the paper in the searchable corpus and gives it the judge's family
 * names (when it named any). Returns whether it was new.
 */
export async function saveJudgement(db: Db, row: NewJudgement): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(familyJudgements)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: familyJudgements.id });
    if (inserted.length === 0) return false;
    if (row.status === 'ok' && row.inFamily !== null && row.inFamily !== undefined) {
      const families = row.inFamily && row.families && row.families.length > 0 ? { families: row.families } : {};
      await tx
        .update(papers)
        .set({
          judgeFamily: row.inFamily,
          ...(row.inFamily && { indexed: true }),
          ...families,
          updatedAt: row.createdAt,
        })
        .where(eq(papers.id, row.paperId));
    }
    return true;
  });
}

/** The latest judgement of a paper (any version), for its card. */
export async function latestJudgement(db: Db, paperId: number): Promise<FamilyJudgement | undefined> {
  const [row] = await db
    .select()
    .from(familyJudgements)
    .where(and(eq(familyJudgements.paperId, paperId), eq(familyJudgements.status, 'ok')))
    .orderBy(sql`${familyJudgements.createdAt} desc`)
    .limit(1);
  return row;
}
