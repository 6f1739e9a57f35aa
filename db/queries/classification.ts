import { asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { familyJudgements, papers } from '../schema.ts';
import type { Classification } from '../../src/core/papers/classify.ts';

/**
 * The key-less filter's verdict as the `papers` columns store it, for every writer (seed import, feeds,
 * re-classification). A judge's or moderator's decision lives in other columns and wins over it.
 * Once in the searchable corpus, always: a later, stricter verdict never hides a paper users found.
 */
export function classificationColumns(c: Classification, at: Date) {
  return {
    rulesFamily: c.grpoFamily,
    ...(c.grpoFamily && { indexed: true }),
    rulesScore: Math.round(c.score * 1000) / 1000,
    families: c.families,
    topics: c.topics,
    classifyReasons: c.reasons,
    classifiedAt: at,
  };
}

/** The judge put the paper in the family and named its families: those, not the rules', are the paper's. */
const judgeNamedFamilies = sql<boolean>`(${papers.judgeFamily} is true and exists (
  select 1 from ${familyJudgements} j
  where j.paper_id = ${papers.id} and j.status = 'ok' and j.in_family and cardinality(j.families) > 0))`;

/**
 * The filter's verdict for a stored paper's row. Its families replace the stored ones only when the
 * judge named none: the judge read the paper by role, and a rules change or a new abstract version
 * must not put back the families the judge corrected (a URL or a baseline naming a family).
 */
export function reclassifiedColumns(c: Classification, at: Date) {
  const columns = classificationColumns(c, at);
  return {
    ...columns,
    families: sql`case when ${judgeNamedFamilies} then ${papers.families} else ${sql.param(columns.families, papers.families)}::text[] end`,
  };
}

export interface StoredClassification {
  id: number;
  title: string;
  abstract: string;
  rulesFamily: boolean | null;
  score: number | null;
  families: string[];
  topics: string[];
  reasons: string[] | null;
  /** The stored families are the judge's (see reclassifiedColumns). */
  judgeNamed: boolean;
}

/** The text and the stored verdict of some papers. */
export async function classificationsOf(db: DbOrTx, paperIds: number[]): Promise<StoredClassification[]> {
  if (paperIds.length === 0) return [];
  return db
    .select({
      id: papers.id,
      title: papers.title,
      abstract: papers.abstract,
      rulesFamily: papers.rulesFamily,
      score: papers.rulesScore,
      families: papers.families,
      topics: papers.topics,
      reasons: papers.classifyReasons,
      judgeNamed: judgeNamedFamilies,
    })
    .from(papers)
    .where(inArray(papers.id, paperIds));
}

export async function saveClassification(
  db: DbOrTx,
  paperId: number,
  columns: ReturnType<typeof reclassifiedColumns>,
): Promise<void> {
  await db.update(papers).set(columns).where(eq(papers.id, paperId));
}

/** Paper ids after `after`, in id order: a large corpus is walked in batches. */
export async function paperIdsAfter(db: Db, after: number, limit: number): Promise<number[]> {
  return (
    await db.select({ id: papers.id }).from(papers).where(gt(papers.id, after)).orderBy(asc(papers.id)).limit(limit)
  ).map((r) => r.id);
}
