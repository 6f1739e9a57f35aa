import type { DbOrTx } from '../../../db/client.ts';
import { saveSearchText, searchTextSources } from '../../../db/queries/search-text.ts';
import { cjkTerms, latinPart } from '../../core/papers/search-terms.ts';

/**
 * Recomputes the app-maintained search text of some papers: the Chinese terms of their Chinese
 * title, translation and notes (`search_zh`), and the Latin words inside the notes (`search_notes`,
 * so "GSPO" finds a Chinese note that discusses it). Rows whose text did not change are not
 * written. Returns how many rows changed.
 */
export async function refreshSearchText(db: DbOrTx, paperIds: number[]): Promise<number> {
  let changed = 0;
  for (const r of await searchTextSources(db, paperIds)) {
    const zh = cjkTerms([r.titleZh ?? '', r.abstractZh ?? '', ...r.noteBodies].join('\n')).join(' ');
    const notes = latinPart(r.noteBodies.join('\n'));
    if (zh === r.zh && notes === r.notes) continue;
    await saveSearchText(db, r.id, { zh, notes });
    changed++;
  }
  return changed;
}
