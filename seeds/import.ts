import type { Db, Tx } from '../db/client.ts';
import type { NewPaper, Paper } from '../db/schema.ts';
import { refreshSearchText } from '../src/services/search/index-text.ts';
import {
  addCitation,
  addNote as insertNote,
  addSources as insertSources,
  insertPaper as insertPaperRow,
  paperIdByArxivId,
  papersByIdsOrTitleKeys,
  updatePaperFields,
} from '../db/queries/seed-import.ts';
import { classifyStored } from '../src/services/ingest/reclassify.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { mergeSeedPapers, type MergedSeedPaper } from './corpus.ts';
import { SEED_DIR } from '../src/services/package-files.ts';
import { loadSeedCorpus } from './parse/index.ts';

export { SEED_DIR };

export interface ImportStats {
  papers: { total: number; added: number; updated: number; unchanged: number; withArxivId: number };
  notes: { total: number; added: number };
  citations: { total: number; added: number; unresolved: number };
  sources: { added: number };
}

/**
 * Imports the seed documents in one transaction. Idempotent: papers are matched by arXiv id, then by
 * normalised title (so a paper a feed already stored is enriched, not duplicated); seed values only
 * fill fields that are still empty, provenance, notes and citations are inserted once (unique keys).
 * A second run changes nothing and the counts say so.
 */
export async function importSeeds(
  deps: { db: Db; now: () => Date },
  dir = SEED_DIR,
  opts: { onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportStats> {
  const now = deps.now();
  const corpus = await loadSeedCorpus(dir);
  const merged = mergeSeedPapers(corpus.papers);
  const stats: ImportStats = {
    papers: {
      total: merged.length,
      added: 0,
      updated: 0,
      unchanged: 0,
      withArxivId: merged.filter((m) => m.arxivId).length,
    },
    notes: { total: merged.filter((m) => m.note).length, added: 0 },
    citations: { total: corpus.citations.length, added: 0, unresolved: 0 },
    sources: { added: 0 },
  };
  await deps.db.transaction(async (tx) => {
    const existing = await loadExisting(tx, merged);
    const idByKey = new Map<string, number>();
    const touched: number[] = [];
    for (const [i, m] of merged.entries()) {
      const found = (m.arxivId && existing.byArxivId.get(m.arxivId)) || existing.byTitleKey.get(titleKey(m.title));
      const { id, outcome } = found
        ? await enrich(tx, found, m, now)
        : { id: await insertPaper(tx, m), outcome: 'added' as const };
      stats.papers[outcome]++;
      touched.push(id);
      for (const e of m.entries) idByKey.set(titleKey(e.title), id);
      if (m.arxivId) idByKey.set(m.arxivId, id);
      stats.sources.added += await addSources(tx, id, m);
      if (m.note && (await addNote(tx, id, m))) stats.notes.added++;
      opts.onProgress?.(i + 1, merged.length);
    }
    for (const c of corpus.citations) {
      const citing = idByKey.get(titleKey(c.citingTitle));
      const cited = idByKey.get(c.citedArxivId) ?? (await paperIdByArxivId(tx, c.citedArxivId));
      if (!citing || !cited) {
        stats.citations.unresolved++;
        continue;
      }
      if (await addCitation(tx, { citingPaperId: citing, citedPaperId: cited, source: 'seed:001', context: c.context }))
        stats.citations.added++;
    }
    // Every seed paper, not only changed ones: repairs search text left by an older tokeniser. Only rows whose text differs are written.
    await refreshSearchText(tx, [...new Set(touched)]);
    await classifyStored(tx, [...new Set(touched)], now);
  });
  return stats;
}

async function loadExisting(tx: Tx, merged: MergedSeedPaper[]) {
  const ids = merged.flatMap((m) => (m.arxivId ? [m.arxivId] : []));
  const keys = merged.flatMap((m) => m.entries.map((e) => titleKey(e.title)));
  const rows = await papersByIdsOrTitleKeys(tx, ids, keys);
  return {
    byArxivId: new Map(rows.filter((r) => r.arxivId).map((r) => [r.arxivId!, r])),
    byTitleKey: new Map(rows.map((r) => [r.titleKey, r])),
  };
}

/** Seed months (`2025-05`) are stored as the first of the month. */
function toDate(s: string | undefined): string | undefined {
  if (!s) return undefined;
  return /^\d{4}-\d{2}$/.test(s) ? `${s}-01` : s;
}

function fieldsOf(m: MergedSeedPaper) {
  return {
    arxivId: m.arxivId ?? null,
    arxivVersion: m.arxivVersion ?? null,
    title: m.title,
    titleZh: m.titleZh ?? null,
    abstract: m.abstract ?? '',
    abstractZh: m.abstractZh ?? null,
    authors: m.authors ?? [],
    authorCount: m.authorCount ?? null,
    organization: m.organization ?? null,
    publishedOn: toDate(m.publishedOn) ?? null,
    hfUpvotes: m.hfUpvotes ?? null,
    githubUrl: m.githubUrl ?? null,
    projectPage: m.projectUrl ?? null,
  };
}

const insertPaper = (tx: Tx, m: MergedSeedPaper): Promise<number> =>
  insertPaperRow(tx, { ...fieldsOf(m), titleKey: titleKey(m.title) });

/** Fills what the stored row lacks; never overwrites what a feed or an earlier import stored. */
async function enrich(
  tx: Tx,
  row: Paper,
  m: MergedSeedPaper,
  now: Date,
): Promise<{ id: number; outcome: 'updated' | 'unchanged' }> {
  const patch: Partial<NewPaper> = {};
  for (const [k, v] of Object.entries(fieldsOf(m)) as [keyof ReturnType<typeof fieldsOf>, unknown][]) {
    const cur = row[k];
    const empty = cur === null || cur === '' || (Array.isArray(cur) && cur.length === 0);
    const hasValue = v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
    if (empty && hasValue) Object.assign(patch, { [k]: v });
  }
  if (m.arxivVersion && (row.arxivVersion ?? 0) < m.arxivVersion) patch.arxivVersion = m.arxivVersion;
  if (m.hfUpvotes && (row.hfUpvotes ?? 0) < m.hfUpvotes) patch.hfUpvotes = m.hfUpvotes;
  if (Object.keys(patch).length === 0) return { id: row.id, outcome: 'unchanged' };
  await updatePaperFields(tx, row.id, { ...patch, updatedAt: now });
  return { id: row.id, outcome: 'updated' };
}

async function addSources(tx: Tx, paperId: number, m: MergedSeedPaper): Promise<number> {
  const values = m.entries.map(({ note: _note, ...entry }) => ({
    paperId,
    source: `seed:${entry.file}`,
    externalId: entry.entryId,
    version: entry.arxivVersion ?? null,
    raw: entry,
  }));
  return insertSources(tx, values);
}

async function addNote(tx: Tx, paperId: number, m: MergedSeedPaper): Promise<boolean> {
  const n = m.note!;
  const source = `seed:${m.entries.find((e) => e.note)?.file ?? 'notes'}`;
  return insertNote(tx, {
    paperId,
    source,
    lang: n.lang,
    heading: n.heading,
    motivation: n.motivation,
    method: n.method,
    results: n.results,
    takeaways: n.takeaways,
    body: n.body,
    restoredChars: n.restoredChars,
    unresolvedChars: n.unresolvedChars,
    uncertainChars: n.uncertainChars,
  });
}
