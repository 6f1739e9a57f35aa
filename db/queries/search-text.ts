import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { notes, papers } from '../schema.ts';
import { cjkTerms, latinPart } from '../../src/papers/search-terms.ts';

/**
 * Recomputes the app-maintained search text of some papers: the Chinese terms of their Chinese
 * title, translation and notes (`search_zh`), and the Latin words inside the notes (`search_notes`,
 * so "GSPO" finds a Chinese note that discusses it). Postgres then regenerates the `search` vector.
 * Rows whose text did not change are not written. Returns how many rows changed.
 */
export async function refreshSearchText(db: DbOrTx, paperIds: number[]): Promise<number> {
  if (paperIds.length === 0) return 0;
  const rows = await db
    .select({ id: papers.id, titleZh: papers.titleZh, abstractZh: papers.abstractZh, zh: papers.searchZh, notes: papers.searchNotes })
    .from(papers)
    .where(inArray(papers.id, paperIds));
  const noteRows = await db
    .select({ paperId: notes.paperId, body: notes.body })
    .from(notes)
    .where(inArray(notes.paperId, paperIds))
    .orderBy(asc(notes.id));
  let changed = 0;
  for (const r of rows) {
    const bodies = noteRows.filter((n) => n.paperId === r.id).map((n) => n.body);
    const zh = cjkTerms([r.titleZh ?? '', r.abstractZh ?? '', ...bodies].join('\n')).join(' ');
    const notesText = latinPart(bodies.join('\n'));
    if (zh === r.zh && notesText === r.notes) continue;
    await db.update(papers).set({ searchZh: zh, searchNotes: notesText }).where(eq(papers.id, r.id));
    changed++;
  }
  return changed;
}
