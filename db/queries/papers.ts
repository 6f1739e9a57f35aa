import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { latestVersionNote } from './versions.ts';
import type { CitationCounts } from '../../src/core/papers/citation-counts.ts';
import { citationCountsOf } from './citation-counts.ts';
import type { Db } from '../client.ts';
import { citations, notes, papers, type FamilyJudgement, type FamilyMark, type Note, type Paper } from '../schema.ts';
import { markOf } from './marks.ts';
import { latestJudgement } from './judgements.ts';

/** The columns a list of papers shows (search results, latest, citing papers). */
export interface PaperSummaryRow {
  id: number;
  arxivId: string | null;
  /** The normalised title: a paper's key while it has no arXiv id. */
  titleKey: string;
  title: string;
  titleZh: string | null;
  authors: string[];
  authorCount: number | null;
  organization: string | null;
  publishedOn: string | null;
  hfUpvotes: number | null;
  families: string[];
  abstract: string;
}

/** Raw-SQL projection of PaperSummaryRow over `papers p`, camelCased to match. */
export const SUMMARY_COLUMNS =
  sql.raw(`p.id, p.arxiv_id as "arxivId", p.title_key as "titleKey", p.title, p.title_zh as "titleZh", p.authors,
  p.author_count as "authorCount", p.organization, p.published_on::text as "publishedOn", p.hf_upvotes as "hfUpvotes",
  p.families, left(p.abstract, 600) as abstract`);

const summaryColumns = {
  id: papers.id,
  arxivId: papers.arxivId,
  titleKey: papers.titleKey,
  title: papers.title,
  titleZh: papers.titleZh,
  authors: papers.authors,
  authorCount: papers.authorCount,
  organization: papers.organization,
  publishedOn: papers.publishedOn,
  hfUpvotes: papers.hfUpvotes,
  families: papers.families,
  abstract: sql<string>`left(${papers.abstract}, 600)`,
};

export async function getPaperByArxivId(db: Db, arxivId: string): Promise<Paper | undefined> {
  const [row] = await db.select().from(papers).where(eq(papers.arxivId, arxivId)).limit(1);
  return row;
}

/** Full paper rows for ids, in the order given (ids not found are left out). */
export async function papersInOrder(db: Db, ids: readonly number[]): Promise<Paper[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(papers)
    .where(inArray(papers.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getPaperById(db: Db, id: number): Promise<Paper | undefined> {
  const [row] = await db.select().from(papers).where(eq(papers.id, id)).limit(1);
  return row;
}

/** A paper by title: the same normalised title first, else the most similar title (trigram) above a floor. */
export async function findPaperByTitle(db: Db, title: string, key: string): Promise<Paper | undefined> {
  const [exact] = await db.select().from(papers).where(eq(papers.titleKey, key)).orderBy(asc(papers.id)).limit(1);
  if (exact) return exact;
  const [fuzzy] = await db
    .select()
    .from(papers)
    .where(sql`${title} <% ${papers.title} and word_similarity(${title}, ${papers.title}) >= 0.75`)
    .orderBy(desc(sql`word_similarity(${title}, ${papers.title})`), asc(papers.id))
    .limit(1);
  return fuzzy;
}

/** Newest papers first: by publication date, then by when we first saw them; GRPO-family papers only unless `all`. */
export async function latestPapers(db: Db, count: number, opts: { all?: boolean } = {}): Promise<PaperSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(papers)
    .where(opts.all ? undefined : eq(papers.grpoFamily, true))
    .orderBy(sql`${papers.publishedOn} desc nulls last`, desc(papers.firstSeenAt), desc(papers.id))
    .limit(count);
}

export interface PaperDetail {
  paper: Paper;
  notes: Note[];
  citing: PaperSummaryRow[];
  citingCount: number;
  cites: PaperSummaryRow[];
  /** A moderator's correction of the family filter, if any. */
  mark?: FamilyMark;
  /** The LLM judge's latest decision, if it read the paper. */
  judgement?: FamilyJudgement;
  /** What its latest compared version changed ("v3 (2026-11-20): group size 8 -> 16"), if a new version was compared. */
  versionNote?: string;
  /** Semantic Scholar's citation counts, once a refresh found the paper. */
  citationCounts?: CitationCounts;
}

/** Everything a paper card shows. */
export async function getPaperDetail(db: Db, paper: Paper, opts: { citingLimit?: number } = {}): Promise<PaperDetail> {
  const [paperNotes, citing, [count], cites, mark, judgement, version, counts] = await Promise.all([
    db.select().from(notes).where(eq(notes.paperId, paper.id)).orderBy(asc(notes.id)),
    db
      .select(summaryColumns)
      .from(citations)
      .innerJoin(papers, eq(papers.id, citations.citingPaperId))
      .where(eq(citations.citedPaperId, paper.id))
      .orderBy(sql`${papers.publishedOn} desc nulls last`, asc(papers.id))
      .limit(opts.citingLimit ?? 10),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(citations)
      .where(eq(citations.citedPaperId, paper.id)),
    db
      .select(summaryColumns)
      .from(citations)
      .innerJoin(papers, eq(papers.id, citations.citedPaperId))
      .where(and(eq(citations.citingPaperId, paper.id)))
      .limit(10),
    markOf(db, paper.id),
    latestJudgement(db, paper.id),
    latestVersionNote(db, paper),
    citationCountsOf(db, paper.id),
  ]);
  return {
    paper,
    notes: paperNotes,
    citing,
    citingCount: count?.n ?? 0,
    cites,
    ...(mark && { mark }),
    ...(judgement && { judgement }),
    ...(version?.note && { versionNote: version.note }),
    ...(counts && { citationCounts: counts }),
  };
}
