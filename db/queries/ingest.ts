import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { paperSources, papers } from '../schema.ts';
import { classificationColumns } from './classification.ts';
import { classifyPaper } from '../../src/papers/classify.ts';
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

/** Only what merging compares: not the search vector or the classification. */
const FIELD_COLUMNS = { id: papers.id, ...Object.fromEntries(FIELD_KEYS.map((k) => [k, papers[k]])) } as { id: typeof papers.id } & { [K in (typeof FIELD_KEYS)[number]]: (typeof papers)[K] };

const pick = (row: Record<string, unknown>): PaperFields => Object.fromEntries(FIELD_KEYS.map((k) => [k, row[k]])) as unknown as PaperFields;

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
export async function ingestCandidates(db: Db, candidates: readonly PaperCandidate[], opts: IngestOptions): Promise<IngestStats> {
  const stats: IngestStats = { received: candidates.length, new: 0, updated: 0, unchanged: 0, merged: 0, family: 0, announced: 0, sources: 0 };
  const now = new Date();
  const groups = new Map<string, PaperCandidate[]>();
  for (const c of candidates) {
    const group = groups.get(c.arxivId);
    if (group) group.push(c);
    else groups.set(c.arxivId, [c]);
  }
  const all = [...groups];
  const size = opts.batchSize ?? 1000;
  let writing: Promise<void> = Promise.resolve();
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
  return stats;
}

type Group = [arxivId: string, candidates: PaperCandidate[]];
type Existing = Map<string, { id: number; fields: PaperFields }>;

async function loadExisting(db: Db, batch: Group[], stats: IngestStats): Promise<Existing> {
  const ids = batch.map(([id]) => id);
  const existing: Existing = new Map();
  for (const row of await db.select(FIELD_COLUMNS).from(papers).where(inArray(papers.arxivId, ids))) existing.set(row.arxivId!, { id: row.id, fields: pick(row) });

  // A paper known only by title (a seed entry) gets its id when a feed brings the same title.
  const keyToId = new Map(batch.filter(([id]) => !existing.has(id)).map(([id, group]) => [titleKey(group[0]!.title), id]));
  if (keyToId.size > 0) {
    const titled = await db.select(FIELD_COLUMNS).from(papers).where(and(isNull(papers.arxivId), inArray(papers.titleKey, [...keyToId.keys()])));
    for (const row of titled) {
      const id = keyToId.get(row.titleKey);
      if (!id || existing.has(id)) continue;
      existing.set(id, { id: row.id, fields: { ...pick(row), arxivId: null } });
      stats.merged++;
    }
  }
  return existing;
}

interface Plan {
  inserts: NewRow[];
  updates: { id: number; set: Record<string, unknown> }[];
  sources: SourceRow[];
}

/** Pure CPU work: merge every group into its row, classify what is new or re-worded. */
function planBatch(batch: Group[], existing: Existing, opts: IngestOptions, now: Date, stats: IngestStats): Plan {
  const plan: Plan = { inserts: [], updates: [], sources: [] };
  for (const [arxivId, group] of batch) {
    const found = existing.get(arxivId);
    const merged = group.reduce<PaperFields | null>((acc, c) => mergeCandidate(acc, c), found?.fields ?? null)!;
    for (const c of group) {
      plan.sources.push({ arxivId, paperId: found?.id ?? null, source: c.source, externalId: c.externalId, version: c.version ?? null, announceType: c.announceType ?? null, raw: c.raw ?? null });
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
    const reclassified = textChanged(patch) ? classificationColumns(classifyPaper(merged), now) : {};
    plan.updates.push({ id: found.id, set: { ...patch, ...reclassified, updatedAt: now } });
    stats.updated++;
  }
  return plan;
}

/** Changed rows one by one (few: a version bump, fresh HF counters), then new papers and all provenance in one statement. */
async function writeBatch(db: Db, plan: Plan, now: Date, stats: IngestStats): Promise<void> {
  for (const u of plan.updates) await db.update(papers).set(u.set).where(eq(papers.id, u.id));
  if (plan.inserts.length === 0 && plan.sources.length === 0) return;
  stats.sources += await insertPapersAndSources(db, plan.inserts, plan.sources, now);
}

type NewRow = PaperFields & ReturnType<typeof classificationColumns> & { newsAt: Date | null };

interface SourceRow {
  arxivId: string;
  /** Known for stored papers; new papers get theirs from the insert. */
  paperId: number | null;
  source: string;
  externalId: string;
  version: number | null;
  announceType: string | null;
  raw: unknown;
}

/**
 * New papers and every provenance row in one statement, with the rows as JSON parameters expanded
 * by Postgres: binding thousands of rows as separate parameters costs more in the driver than the
 * insert does in the database, and one statement is atomic without a transaction's round trips.
 * Returns how many provenance rows were added.
 */
async function insertPapersAndSources(db: Db, rows: NewRow[], sources: SourceRow[], now: Date): Promise<number> {
  const papersJson = JSON.stringify(rows.map((r) => ({
    arxiv_id: r.arxivId, arxiv_version: r.arxivVersion, title_key: r.titleKey, title: r.title, abstract: r.abstract, authors: r.authors,
    author_count: r.authorCount, organization: r.organization, published_on: r.publishedOn, categories: r.categories, github_url: r.githubUrl,
    github_stars: r.githubStars, project_page: r.projectPage, hf_upvotes: r.hfUpvotes, ai_summary: r.aiSummary, ai_keywords: r.aiKeywords,
    grpo_family: r.grpoFamily, family_score: r.familyScore, families: r.families, topics: r.topics, classify_reasons: r.classifyReasons,
    classified_at: r.classifiedAt, news_at: r.newsAt, indexed: r.grpoFamily,
  })));
  const sourcesJson = JSON.stringify(sources.map((s) => ({
    arxiv_id: s.arxivId, paper_id: s.paperId, source: s.source, external_id: s.externalId, version: s.version, announce_type: s.announceType, raw: s.raw,
  })));
  const columns = sql.raw(`arxiv_id, arxiv_version, title_key, title, abstract, authors, author_count, organization, published_on, categories,
    github_url, github_stars, project_page, hf_upvotes, ai_summary, ai_keywords, grpo_family, family_score, families, topics, classify_reasons,
    classified_at, news_at, indexed`);
  const [row] = await db.execute<{ sources: number }>(sql`
    with new_papers as (
      insert into papers (${columns})
      select ${columns} from jsonb_to_recordset(${papersJson}::jsonb) as x(arxiv_id text, arxiv_version int, title_key text, title text,
        abstract text, authors text[], author_count int, organization text, published_on date, categories text[], github_url text,
        github_stars int, project_page text, hf_upvotes int, ai_summary text, ai_keywords text[], grpo_family boolean, family_score real,
        families text[], topics text[], classify_reasons jsonb, classified_at timestamptz, news_at timestamptz, indexed boolean)
      on conflict (arxiv_id) do nothing
      returning id, arxiv_id
    ), added as (
      insert into paper_sources (paper_id, source, external_id, version, announce_type, raw, seen_at)
      select coalesce(s.paper_id, n.id), s.source, s.external_id, s.version, s.announce_type, s.raw, ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${sourcesJson}::jsonb) as s(arxiv_id text, paper_id int, source text, external_id text, version int,
        announce_type text, raw jsonb)
      left join new_papers n on n.arxiv_id = s.arxiv_id
      where coalesce(s.paper_id, n.id) is not null
      on conflict (source, external_id) do nothing
      returning 1
    )
    select count(*)::int as sources from added`);
  return row?.sources ?? 0;
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
