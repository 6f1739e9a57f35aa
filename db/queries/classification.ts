import { asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { papers } from '../schema.ts';
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

export interface StoredClassification {
  id: number;
  title: string;
  abstract: string;
  rulesFamily: boolean | null;
  score: number | null;
  families: string[];
  topics: string[];
  reasons: string[] | null;
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
    })
    .from(papers)
    .where(inArray(papers.id, paperIds));
}

export async function saveClassification(
  db: DbOrTx,
  paperId: number,
  columns: ReturnType<typeof classificationColumns>,
): Promise<void> {
  await db.update(papers).set(columns).where(eq(papers.id, paperId));
}

/** Paper ids after `after`, in id order: a large corpus is walked in batches. */
export async function paperIdsAfter(db: Db, after: number, limit: number): Promise<number[]> {
  return (
    await db.select({ id: papers.id }).from(papers).where(gt(papers.id, after)).orderBy(asc(papers.id)).limit(limit)
  ).map((r) => r.id);
}
