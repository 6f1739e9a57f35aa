/**
 * Storage for ingest (src/services/ingest/ingest.ts decides what to write): read the stored fields of papers
 * by arXiv id or title key, update one paper, and insert new papers with their provenance in one
 * statement.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { paperSources, papers } from '../schema.ts';
import type { classificationColumns } from './classification.ts';
import type { PaperFields } from '../../src/core/papers/merge.ts';

/** The columns merging compares: not the search vector or the classification. */
export const FIELD_KEYS = [
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

const FIELD_COLUMNS = { id: papers.id, ...Object.fromEntries(FIELD_KEYS.map((k) => [k, papers[k]])) } as {
  id: typeof papers.id;
} & { [K in (typeof FIELD_KEYS)[number]]: (typeof papers)[K] };

const pick = (row: Record<string, unknown>): PaperFields =>
  Object.fromEntries(FIELD_KEYS.map((k) => [k, row[k]])) as unknown as PaperFields;

export interface StoredFields {
  id: number;
  fields: PaperFields;
}

/** Stored papers by arXiv id. */
export async function fieldsByArxivIds(db: DbOrTx, arxivIds: string[]): Promise<StoredFields[]> {
  if (arxivIds.length === 0) return [];
  return (await db.select(FIELD_COLUMNS).from(papers).where(inArray(papers.arxivId, arxivIds))).map((row) => ({
    id: row.id,
    fields: pick(row),
  }));
}

/** Papers known only by title (no arXiv id yet) with one of these title keys. */
export async function titleOnlyFieldsByKeys(db: DbOrTx, keys: string[]): Promise<StoredFields[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select(FIELD_COLUMNS)
    .from(papers)
    .where(and(isNull(papers.arxivId), inArray(papers.titleKey, keys)));
  return rows.map((row) => ({ id: row.id, fields: pick(row) }));
}

export async function updatePaper(db: DbOrTx, id: number, set: Record<string, unknown>): Promise<void> {
  await db.update(papers).set(set).where(eq(papers.id, id));
}

export type NewPaperRow = PaperFields & ReturnType<typeof classificationColumns> & { newsAt: Date | null };

export interface SourceRow {
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
export async function insertPapersAndSources(
  db: DbOrTx,
  rows: NewPaperRow[],
  sources: SourceRow[],
  now: Date,
): Promise<number> {
  const papersJson = JSON.stringify(
    rows.map((r) => ({
      arxiv_id: r.arxivId,
      arxiv_version: r.arxivVersion,
      title_key: r.titleKey,
      title: r.title,
      abstract: r.abstract,
      authors: r.authors,
      author_count: r.authorCount,
      organization: r.organization,
      published_on: r.publishedOn,
      categories: r.categories,
      github_url: r.githubUrl,
      github_stars: r.githubStars,
      project_page: r.projectPage,
      hf_upvotes: r.hfUpvotes,
      ai_summary: r.aiSummary,
      ai_keywords: r.aiKeywords,
      rules_family: r.rulesFamily,
      rules_score: r.rulesScore,
      families: r.families,
      topics: r.topics,
      classify_reasons: r.classifyReasons,
      classified_at: r.classifiedAt,
      news_at: r.newsAt,
      indexed: r.rulesFamily,
    })),
  );
  const sourcesJson = JSON.stringify(
    sources.map((s) => ({
      arxiv_id: s.arxivId,
      paper_id: s.paperId,
      source: s.source,
      external_id: s.externalId,
      version: s.version,
      announce_type: s.announceType,
      raw: s.raw,
    })),
  );
  const columns =
    sql.raw(`arxiv_id, arxiv_version, title_key, title, abstract, authors, author_count, organization, published_on, categories,
    github_url, github_stars, project_page, hf_upvotes, ai_summary, ai_keywords, rules_family, rules_score, families, topics, classify_reasons,
    classified_at, news_at, indexed`);
  const [row] = await db.execute<{ sources: number }>(sql`
    with new_papers as (
      insert into papers (${columns})
      select ${columns} from jsonb_to_recordset(${papersJson}::jsonb) as x(arxiv_id text, arxiv_version int, title_key text, title text,
        abstract text, authors text[], author_count int, organization text, published_on date, categories text[], github_url text,
        github_stars int, project_page text, hf_upvotes int, ai_summary text, ai_keywords text[], rules_family boolean, rules_score real,
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
export async function titleOnlyPapers(
  db: Db,
  limit: number,
): Promise<{ id: number; title: string; titleKey: string }[]> {
  return db.execute<{ id: number; title: string; titleKey: string }>(sql`
    select p.id, p.title, p.title_key as "titleKey" from papers p
    where p.arxiv_id is null
      and not exists (select 1 from paper_sources s where s.paper_id = p.id and s.source = ${TITLE_LOOKUP_SOURCE})
    order by p.id limit ${limit}`);
}

/** Remembers that a title was looked up, and what came of it. */
export async function recordTitleLookup(
  db: Db,
  paperId: number,
  titleKeyValue: string,
  found: string | null,
  at: Date,
): Promise<void> {
  await db
    .insert(paperSources)
    .values({ paperId, source: TITLE_LOOKUP_SOURCE, externalId: titleKeyValue, raw: { found, at: at.toISOString() } })
    .onConflictDoNothing();
}
