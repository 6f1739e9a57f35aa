import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { notes, papers } from '../schema.ts';
import { cjkBigrams } from '../../src/papers/search-terms.ts';

/**
 * Recomputes the app-maintained search text of some papers: the Chinese bigrams of their Chinese
 * title, translation and notes (`search_zh`). Postgres then regenerates the `search` vector.
 * Rows whose text did not change are not written. Returns how many rows changed.
 */
export async function refreshSearchText(db: Db, paperIds: number[]): Promise<number> {
  if (paperIds.length === 0) return 0;
  const rows = await db
    .select({
      id: papers.id,
      titleZh: papers.titleZh,
      abstractZh: papers.abstractZh,
      current: papers.searchZh,
      notes: sql<string[]>`coalesce((select array_agg(${notes.body} order by ${notes.id}) from ${notes} where ${notes.paperId} = ${papers.id}), '{}')`,
    })
    .from(papers)
    .where(inArray(papers.id, paperIds));
  let changed = 0;
  for (const r of rows) {
    const text = cjkBigrams([r.titleZh ?? '', r.abstractZh ?? '', ...r.notes].join('\n')).join(' ');
    if (text === r.current) continue;
    await db.update(papers).set({ searchZh: text }).where(eq(papers.id, r.id));
    changed++;
  }
  return changed;
}
