/**
 * The ingest benchmark's baseline: the straightforward row-by-row upsert a first implementation would
 * write, over the same parsed candidates as `ingestCandidates` (src/services/ingest/ingest.ts). For each
 * candidate, each statement on its own (autocommit, no transaction, no batching):
 *   select the paper by arXiv id -> classify and insert it, or merge and update it when it changed
 *   -> insert one paper_sources row.
 * Same merge rules and classifier as the real upsert, so both end with the same rows; it leaves
 * out only the title-only (seed) merge, which finds nothing on a fresh database anyway.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { paperSources, papers } from '../db/schema.ts';
import { classificationColumns } from '../db/queries/classification.ts';
import { classifyPaper } from '../src/core/papers/classify.ts';
import {
  changedFields,
  isAnnouncement,
  mergeCandidate,
  textChanged,
  type PaperFields,
} from '../src/core/papers/merge.ts';
import type { PaperCandidate } from '../src/core/papers/candidate.ts';

export interface RowByRowStats {
  received: number;
  new: number;
  updated: number;
  unchanged: number;
  family: number;
  sources: number;
}

const FIELD_KEYS = [
  'arxivId',
  'arxivVersion',
  'titleKey',
  'title',
  'abstract',
  'authors',
  'authorCount',
  'organization',
  'publishedOn',
  'categories',
  'githubUrl',
  'githubStars',
  'projectPage',
  'hfUpvotes',
  'aiSummary',
  'aiKeywords',
] as const satisfies readonly (keyof PaperFields)[];

const fieldsOf = (row: Record<string, unknown>): PaperFields =>
  Object.fromEntries(FIELD_KEYS.map((k) => [k, row[k]])) as unknown as PaperFields;

export async function ingestRowByRow(
  db: Db,
  candidates: readonly PaperCandidate[],
  opts: { newsAt: Date | null },
): Promise<RowByRowStats> {
  const stats: RowByRowStats = { received: candidates.length, new: 0, updated: 0, unchanged: 0, family: 0, sources: 0 };
  for (const c of candidates) {
    const now = new Date();
    const [row] = await db.select().from(papers).where(eq(papers.arxivId, c.arxivId)).limit(1);
    let paperId: number | undefined;
    if (!row) {
      const fields = mergeCandidate(null, c, now.toISOString().slice(0, 10));
      const k = classifyPaper(fields);
      const [inserted] = await db
        .insert(papers)
        .values({
          ...fields,
          ...classificationColumns(k, now),
          indexed: k.grpoFamily,
          newsAt: opts.newsAt && isAnnouncement(c) ? opts.newsAt : null,
        })
        .onConflictDoNothing()
        .returning({ id: papers.id });
      paperId = inserted?.id;
      stats.new++;
      if (k.grpoFamily) stats.family++;
    } else {
      paperId = row.id;
      const before = fieldsOf(row);
      const patch = changedFields(before, mergeCandidate(before, c, now.toISOString().slice(0, 10)));
      if (Object.keys(patch).length === 0) {
        stats.unchanged++;
      } else {
        const reclassified = textChanged(patch)
          ? classificationColumns(classifyPaper({ ...before, ...patch }), now)
          : {};
        await db
          .update(papers)
          .set({ ...patch, ...reclassified, updatedAt: now })
          .where(eq(papers.id, row.id));
        stats.updated++;
      }
    }
    if (paperId === undefined) continue;
    const added = await db
      .insert(paperSources)
      .values({
        paperId,
        source: c.source,
        externalId: c.externalId,
        version: c.version ?? null,
        announceType: c.announceType ?? null,
        raw: c.raw,
      })
      .onConflictDoNothing()
      .returning({ id: paperSources.id });
    stats.sources += added.length;
  }
  return stats;
}
