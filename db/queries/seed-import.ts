/** Storage for the seed importer (seeds/import.ts decides what to write). Every function runs in the import's transaction. */
import { eq, inArray, or } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { citations, notes, paperSources, papers, type NewPaper, type Paper } from '../schema.ts';

/** Stored papers with one of these arXiv ids or title keys. */
export async function papersByIdsOrTitleKeys(tx: Tx, arxivIds: string[], titleKeys: string[]): Promise<Paper[]> {
  return tx
    .select()
    .from(papers)
    .where(or(inArray(papers.arxivId, arxivIds), inArray(papers.titleKey, titleKeys)));
}

export async function insertPaper(tx: Tx, values: NewPaper): Promise<number> {
  const [row] = await tx.insert(papers).values(values).returning({ id: papers.id });
  return row!.id;
}

export async function updatePaperFields(tx: Tx, id: number, patch: Partial<NewPaper>): Promise<void> {
  await tx.update(papers).set(patch).where(eq(papers.id, id));
}

export async function paperIdByArxivId(tx: Tx, arxivId: string): Promise<number | undefined> {
  return (await tx.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, arxivId)))[0]?.id;
}

/** Provenance rows, once per source item; returns how many were new. */
export async function addSources(tx: Tx, rows: (typeof paperSources.$inferInsert)[]): Promise<number> {
  if (rows.length === 0) return 0;
  return (await tx.insert(paperSources).values(rows).onConflictDoNothing().returning({ id: paperSources.id })).length;
}

/** A note, once per paper and source; returns whether it was new. */
export async function addNote(tx: Tx, row: typeof notes.$inferInsert): Promise<boolean> {
  return (await tx.insert(notes).values(row).onConflictDoNothing().returning({ id: notes.id })).length > 0;
}

/** A citation edge, once; returns whether it was new. */
export async function addCitation(tx: Tx, row: typeof citations.$inferInsert): Promise<boolean> {
  return (
    (await tx.insert(citations).values(row).onConflictDoNothing().returning({ id: citations.citingPaperId })).length > 0
  );
}
