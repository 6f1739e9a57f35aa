import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { notes, papers } from '../schema.ts';

export interface SearchTextSource {
  id: number;
  titleZh: string | null;
  abstractZh: string | null;
  /** The stored app-maintained text, to write only what changed. */
  zh: string;
  notes: string;
  noteBodies: string[];
}

/** What the app-maintained search text of some papers is computed from (src/services/search/index-text.ts). */
export async function searchTextSources(db: DbOrTx, paperIds: number[]): Promise<SearchTextSource[]> {
  if (paperIds.length === 0) return [];
  const rows = await db
    .select({
      id: papers.id,
      titleZh: papers.titleZh,
      abstractZh: papers.abstractZh,
      zh: papers.searchZh,
      notes: papers.searchNotes,
    })
    .from(papers)
    .where(inArray(papers.id, paperIds));
  const noteRows = await db
    .select({ paperId: notes.paperId, body: notes.body })
    .from(notes)
    .where(inArray(notes.paperId, paperIds))
    .orderBy(asc(notes.id));
  return rows.map((r) => ({ ...r, noteBodies: noteRows.filter((n) => n.paperId === r.id).map((n) => n.body) }));
}

/** Stores a paper's app-maintained search text; Postgres then regenerates the `search` vector. */
export async function saveSearchText(db: DbOrTx, paperId: number, text: { zh: string; notes: string }): Promise<void> {
  await db.update(papers).set({ searchZh: text.zh, searchNotes: text.notes }).where(eq(papers.id, paperId));
}
