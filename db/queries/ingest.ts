import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../client.ts';
import { paperSources, papers, type NewPaper } from '../schema.ts';
import { classifyPaper, type Classification } from '../../src/papers/classify.ts';
import { titleKey } from '../../src/papers/identity.ts';
import { changedFields, isAnnouncement, mergeCandidate, textChanged, type PaperFields } from '../../src/papers/merge.ts';
import type { PaperCandidate } from '../../src/sources/candidate.ts';

export interface IngestOptions {
  /** Stamp newly stored papers as news at this time; null stores them quietly (a source's first poll, backfill). */
  newsAt: Date | null;
  /** Candidates per transaction; each batch is one round of set-based statements. */
  batchSize?: number;
}

export interface IngestStats {
  received: number;
  /** Papers stored for the first time. */
  new: number;
  /** Known papers that changed (new version, HF counters, filled fields, or a title-only paper given its id). */
  updated: number;
  unchanged: number;
  /** Title-only papers (seeds) that got their arXiv id from this batch. */
  merged: number;
  /** New papers the classifier calls GRPO-family. */
  family: number;
  /** New papers stamped as news. */
  announced: number;
  /** Provenance rows added (a re-run adds none). */
  sources: number;
}

const FIELD_KEYS = [
  'arxivId', 'arxivVersion', 'titleKey', 'title', 'abstract', 'authors', 'authorCount', 'organization', 'publishedOn',
  'categories', 'githubUrl', 'githubStars', 'projectPage', 'hfUpvotes', 'aiSummary', 'aiKeywords',
] as const satisfies readonly (keyof PaperFields)[];

const pick = (row: Record<string, unknown>): PaperFields => Object.fromEntries(FIELD_KEYS.map((k) => [k, row[k]])) as unknown as PaperFields;

const classified = (c: Classification, at: Date) => ({
  grpoFamily: c.grpoFamily, familyScore: Math.round(c.score * 1000) / 1000, families: c.families, topics: c.topics,
  classifyReasons: c.reasons, classifiedAt: at,
});

/**
 * Stores feed candidates: one paper per arXiv id (versions, cross-lists and the HF item of the
 * same paper fold into one row), provenance once per source item, classification for every new or
 * re-worded paper. Set-based per batch (one select, one multi-row insert, updates only for rows
 * that changed), so a re-run over the same data writes nothing and a 20k-item backfill is fast.
 */
export async function ingestCandidates(db: Db, candidates: readonly PaperCandidate[], opts: IngestOptions): Promise<IngestStats> {
  const stats: IngestStats = { received: candidates.length, new: 0, updated: 0, unchanged: 0, merged: 0, family: 0, announced: 0, sources: 0 };
  const size = opts.batchSize ?? 1000;
  for (let i = 0; i < candidates.length; i += size) {
    await db.transaction((tx) => ingestBatch(tx, candidates.slice(i, i + size), opts, stats));
  }
  return stats;
}

async function ingestBatch(tx: Tx, batch: readonly PaperCandidate[], opts: IngestOptions, stats: IngestStats): Promise<void> {
  const now = new Date();
  const groups = new Map<string, PaperCandidate[]>();
  for (const c of batch) {
    const group = groups.get(c.arxivId);
    if (group) group.push(c);
    else groups.set(c.arxivId, [c]);
  }
  const ids = [...groups.keys()];
  const existing = new Map<string, { id: number; fields: PaperFields }>();
  for (const row of await tx.select().from(papers).where(inArray(papers.arxivId, ids))) existing.set(row.arxivId!, { id: row.id, fields: pick(row) });

  // A paper known only by title (a seed entry) gets its id when a feed brings the same title.
  const unknown = ids.filter((id) => !existing.has(id));
  const keyToId = new Map(unknown.map((id) => [titleKey(groups.get(id)![0]!.title), id]));
  if (keyToId.size > 0) {
    const titled = await tx.select().from(papers).where(and(isNull(papers.arxivId), inArray(papers.titleKey, [...keyToId.keys()])));
    for (const row of titled) {
      const id = keyToId.get(row.titleKey);
      if (!id || existing.has(id)) continue;
      existing.set(id, { id: row.id, fields: { ...pick(row), arxivId: null } });
      stats.merged++;
    }
  }

  const inserts: NewPaper[] = [];
  for (const [arxivId, group] of groups) {
    const found = existing.get(arxivId);
    const merged = group.reduce<PaperFields | null>((acc, c) => mergeCandidate(acc, c), found?.fields ?? null)!;
    if (!found) {
      const c = classifyPaper(merged);
      const news = opts.newsAt && group.some(isAnnouncement) ? opts.newsAt : null;
      inserts.push({ ...merged, ...classified(c, now), newsAt: news });
      stats.new++;
      if (c.grpoFamily) stats.family++;
      if (news) stats.announced++;
      continue;
    }
    const patch = changedFields(found.fields, merged);
    if (Object.keys(patch).length === 0) {
      stats.unchanged++;
      continue;
    }
    const reclassified = textChanged(patch) ? classified(classifyPaper(merged), now) : {};
    await tx.update(papers).set({ ...patch, ...reclassified, updatedAt: now }).where(eq(papers.id, found.id));
    stats.updated++;
  }

  const paperIds = new Map([...existing].map(([arxivId, e]) => [arxivId, e.id]));
  if (inserts.length > 0) {
    const rows = await tx.insert(papers).values(inserts).onConflictDoNothing().returning({ id: papers.id, arxivId: papers.arxivId });
    for (const r of rows) paperIds.set(r.arxivId!, r.id);
  }

  const sources = batch.flatMap((c) => {
    const paperId = paperIds.get(c.arxivId);
    return paperId === undefined ? [] : [{
      paperId, source: c.source, externalId: c.externalId, version: c.version ?? null, announceType: c.announceType ?? null, raw: c.raw,
    }];
  });
  if (sources.length > 0) {
    const added = await tx.insert(paperSources).values(sources).onConflictDoNothing().returning({ id: sql<number>`1` });
    stats.sources += added.length;
  }
}

/** Where a title lookup's outcome is remembered, so an unresolvable title is not asked for every day. */
export const TITLE_LOOKUP_SOURCE = 'arxiv-api:title-lookup';

/** Papers still known only by title that were never looked up (oldest first). */
export async function titleOnlyPapers(db: Db, limit: number): Promise<{ id: number; title: string; titleKey: string }[]> {
  return db.execute<{ id: number; title: string; titleKey: string }>(sql`
    select p.id, p.title, p.title_key as "titleKey" from papers p
    where p.arxiv_id is null
      and not exists (select 1 from paper_sources s where s.paper_id = p.id and s.source = ${TITLE_LOOKUP_SOURCE})
    order by p.id limit ${limit}`);
}

/** Remembers that a title was looked up, and what came of it. */
export async function recordTitleLookup(db: Db, paperId: number, titleKeyValue: string, found: string | null, at: Date): Promise<void> {
  await db.insert(paperSources).values({ paperId, source: TITLE_LOOKUP_SOURCE, externalId: titleKeyValue, raw: { found, at: at.toISOString() } })
    .onConflictDoNothing();
}
