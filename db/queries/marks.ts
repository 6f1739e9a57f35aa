/** Storage for moderators' corrections of the family filter (commands/paper/mark.ts decides what to set). */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { deliveries, familyMarks, papers, type FamilyMark } from '../schema.ts';

export interface MarkInput {
  paperId: number;
  inFamily: boolean;
  reason: string | null;
  setBy: string;
  setByName: string | null;
  guildId: string | null;
}

/**
 * Sets (or replaces) a paper's mark, in one transaction with the paper's `family_mark`. Marked in, the
 * paper joins the searchable corpus; when `renewNews` is given it becomes news again at that instant,
 * so the next digest and subscriptions pick it up once.
 */
export async function setMark(db: Db, m: MarkInput, now: Date, opts: { renewNews: boolean }): Promise<FamilyMark> {
  return db.transaction(async (tx) => {
    const values = { ...m, setAt: now };
    const [row] = await tx
      .insert(familyMarks)
      .values(values)
      .onConflictDoUpdate({
        target: familyMarks.paperId,
        set: {
          inFamily: m.inFamily,
          reason: m.reason,
          setBy: m.setBy,
          setByName: m.setByName,
          guildId: m.guildId,
          setAt: now,
        },
      })
      .returning();
    await tx
      .update(papers)
      .set({
        familyMark: m.inFamily,
        ...(m.inFamily && { indexed: true }),
        ...(opts.renewNews && { newsAt: now }),
        updatedAt: now,
      })
      .where(eq(papers.id, m.paperId));
    return row!;
  });
}

/** Removes a paper's mark: the judge's or the filter's verdict applies again. Returns the mark removed. */
export async function clearMark(db: Db, paperId: number, now: Date): Promise<FamilyMark | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(familyMarks).where(eq(familyMarks.paperId, paperId)).returning();
    if (row) await tx.update(papers).set({ familyMark: null, updatedAt: now }).where(eq(papers.id, paperId));
    return row;
  });
}

export async function markOf(db: Db, paperId: number): Promise<FamilyMark | undefined> {
  return (await db.select().from(familyMarks).where(eq(familyMarks.paperId, paperId)))[0];
}

/** Whether a sent digest message already carried the paper. */
export async function wasPosted(db: Db, paperId: number): Promise<boolean> {
  const rows = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.status, 'sent'), sql`${paperId} = any(${deliveries.paperIds})`))
    .limit(1);
  return rows.length > 0;
}

/** Every mark with its paper's text, oldest first (for `export-labels`). */
export async function marksWithPapers(db: Db) {
  return db
    .select({
      arxivId: papers.arxivId,
      titleKey: papers.titleKey,
      title: papers.title,
      abstract: papers.abstract,
      inFamily: familyMarks.inFamily,
      reason: familyMarks.reason,
      setBy: familyMarks.setBy,
      setByName: familyMarks.setByName,
      setAt: familyMarks.setAt,
    })
    .from(familyMarks)
    .innerJoin(papers, eq(papers.id, familyMarks.paperId))
    .orderBy(asc(familyMarks.setAt), asc(familyMarks.paperId));
}
