import type { DbOrTx } from '../../../db/client.ts';
import { classificationColumns, reclassifiedColumns } from '../../../db/queries/classification.ts';
import {
  fieldsByArxivIds,
  insertPapersAndSources,
  titleOnlyFieldsByKeys,
  updatePaper,
  type NewPaperRow,
  type SourceRow,
} from '../../../db/queries/ingest.ts';
import { classifyPaper } from '../../core/papers/classify.ts';
import { titleKey } from '../../core/papers/identity.ts';
import {
  changedFields,
  isAnnouncement,
  mergeCandidate,
  textChanged,
  type PaperFields,
} from '../../core/papers/merge.ts';
import type { PaperCandidate } from '../../core/papers/candidate.ts';
import { recordRevisions, type VersionText } from '../../../db/queries/versions.ts';

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

/**
 * Stores feed candidates: one paper per arXiv id (versions, cross-lists and the HF item of the
 * same paper fold into one row), provenance once per source item, classification for every new or
 * re-worded paper. A re-run over the same data writes nothing.
 *
 * Built for a whole day's listing (thousands of items): candidates are grouped by arXiv id first,
 * so batches never share a paper, and each batch is one read and one write statement. While
 * Postgres writes one batch (indexing its text), Node reads and classifies the next, so the two
 * cores work at once.
 */
export async function ingestCandidates(
  deps: { db: DbOrTx; now: () => Date },
  candidates: readonly PaperCandidate[],
  opts: IngestOptions,
): Promise<IngestStats> {
  const { db } = deps;
  const stats: IngestStats = {
    received: candidates.length,
    new: 0,
    updated: 0,
    unchanged: 0,
    merged: 0,
    family: 0,
    announced: 0,
    sources: 0,
  };
  const now = deps.now();
  const groups = new Map<string, PaperCandidate[]>();
  for (const c of candidates) {
    const group = groups.get(c.arxivId);
    if (group) group.push(c);
    else groups.set(c.arxivId, [c]);
  }
  const all = [...groups];
  const size = opts.batchSize ?? 1000;
  let writing: Promise<void> = Promise.resolve();
  try {
    for (let i = 0; i < all.length; i += size) {
      const batch = all.slice(i, i + size);
      const existing = await loadExisting(db, batch, stats);
      const plan = planBatch(batch, existing, opts, now, stats);
      await writing;
      writing = writeBatch(db, plan, now, stats);
      writing.catch(() => {}); // awaited below; this only stops an early failure from counting as unhandled
      await new Promise((resolve) => setImmediate(resolve)); // let the statement reach Postgres before the next batch's CPU work
    }
    await writing;
  } catch (err) {
    // In a transaction, a read sent after a failed write only says "transaction aborted": report the write's own error.
    await writing;
    throw err;
  }
  return stats;
}

type Group = [arxivId: string, candidates: PaperCandidate[]];
type Existing = Map<string, { id: number; fields: PaperFields }>;

async function loadExisting(db: DbOrTx, batch: Group[], stats: IngestStats): Promise<Existing> {
  const existing: Existing = new Map();
  for (const row of await fieldsByArxivIds(
    db,
    batch.map(([id]) => id),
  ))
    existing.set(row.fields.arxivId!, row);

  // A paper known only by title (a seed entry) gets its id when a feed brings the same title.
  const keyToId = new Map(
    batch.filter(([id]) => !existing.has(id)).map(([id, group]) => [titleKey(group[0]!.title), id]),
  );
  for (const row of await titleOnlyFieldsByKeys(db, [...keyToId.keys()])) {
    const id = keyToId.get(row.fields.titleKey);
    if (!id || existing.has(id)) continue;
    existing.set(id, { id: row.id, fields: { ...row.fields, arxivId: null } });
    stats.merged++;
  }
  return existing;
}

interface Plan {
  inserts: NewPaperRow[];
  updates: { id: number; set: Record<string, unknown> }[];
  /** Stored papers a feed brought a newer version of: the version replaced and the new one. */
  revisions: { id: number; from: VersionText; to: VersionText }[];
  sources: SourceRow[];
}

/** Pure CPU work: merge every group into its row, classify what is new or re-worded. */
function planBatch(batch: Group[], existing: Existing, opts: IngestOptions, now: Date, stats: IngestStats): Plan {
  const plan: Plan = { inserts: [], updates: [], revisions: [], sources: [] };
  for (const [arxivId, group] of batch) {
    const found = existing.get(arxivId);
    const today = now.toISOString().slice(0, 10);
    const merged = group.reduce<PaperFields | null>((acc, c) => mergeCandidate(acc, c, today), found?.fields ?? null)!;
    for (const c of group) {
      plan.sources.push({
        arxivId,
        paperId: found?.id ?? null,
        source: c.source,
        externalId: c.externalId,
        version: c.version ?? null,
        announceType: c.announceType ?? null,
        raw: c.raw ?? null,
      });
    }
    if (!found) {
      const c = classifyPaper(merged);
      const news = opts.newsAt && group.some(isAnnouncement) ? opts.newsAt : null;
      plan.inserts.push({ ...merged, ...classificationColumns(c, now), newsAt: news });
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
    const reclassified = textChanged(patch) ? reclassifiedColumns(classifyPaper(merged), now) : {};
    plan.updates.push({ id: found.id, set: { ...patch, ...reclassified, updatedAt: now } });
    const revision = revisionOf(found.fields, merged, group, today);
    if (revision) plan.revisions.push({ id: found.id, ...revision });
    stats.updated++;
  }
  return plan;
}

/**
 * A known version replaced by a newer one: what the bot showed of each (its date: the announcing
 * item's, else v1's publication date, else unknown). Papers without a known version are filled, not revised.
 */
function revisionOf(
  before: PaperFields,
  after: PaperFields,
  group: PaperCandidate[],
  today: string,
): { from: VersionText; to: VersionText } | undefined {
  if (before.arxivVersion === null || after.arxivVersion === null || after.arxivVersion <= before.arxivVersion)
    return undefined;
  const announcing = group.find((c) => c.version === after.arxivVersion);
  return {
    from: {
      version: before.arxivVersion,
      title: before.title,
      abstract: before.abstract,
      announcedOn: before.arxivVersion === 1 ? before.publishedOn : null,
    },
    to: {
      version: after.arxivVersion,
      title: after.title,
      abstract: after.abstract,
      announcedOn: announcing?.publishedOn && announcing.publishedOn <= today ? announcing.publishedOn : today,
    },
  };
}

/** Changed rows one by one (few: a version bump, fresh HF counters), then new papers and all provenance in one statement. */
async function writeBatch(db: DbOrTx, plan: Plan, now: Date, stats: IngestStats): Promise<void> {
  // Before the update: whether the paper is in the family is read as it was when the version was replaced.
  await recordRevisions(db, plan.revisions);
  for (const u of plan.updates) await updatePaper(db, u.id, u.set);
  if (plan.inserts.length === 0 && plan.sources.length === 0) return;
  stats.sources += await insertPapersAndSources(db, plan.inserts, plan.sources, now);
}
