/** What the search index reads from Postgres (src/services/search builds and ranks; Postgres stays the source of truth). */
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { SUMMARY_COLUMNS, type PaperSummaryRow } from './papers.ts';

export interface SearchHit extends PaperSummaryRow {
  score: number;
}

export interface SearchPage {
  hits: SearchHit[];
  hasMore: boolean;
  /** Words no paper has that were searched as another spelling: the reply says so. */
  corrections?: { typed: string; shown: string }[];
}

/** A paper as the index reads it, with the texts of its LLM summaries. */
export interface SearchSourceRow {
  id: number;
  indexed: boolean;
  title: string;
  abstract: string;
  searchNotes: string;
  searchZh: string;
  families: string[];
  publishedOn: string | null;
  searchRev: number;
  /** Each ok summary's content (JSON), any language. */
  summaries: unknown[];
  /** The settings the rules extractor read from the paper's latest full text ([] without one). */
  textSettings: { key: string; value: string }[];
}

/**
 * Papers whose search revision is past `afterRev` (every paper for 0), in revision order, at most
 * `limit`: the index reloads them. Papers that left the searchable corpus come back with `indexed`
 * false and no text (a day's feed stores thousands of them: only their ids are read), so replicas
 * drop them too.
 */
export async function searchRowsAfter(db: Db, afterRev: number, limit: number): Promise<SearchSourceRow[]> {
  const rows = await db.execute<SearchSourceRow & Record<string, unknown>>(sql`
    select p.id, p.indexed, p.search_rev::float8 as "searchRev",
      case when p.indexed then p.title else '' end as title, case when p.indexed then p.abstract else '' end as abstract,
      case when p.indexed then p.search_notes else '' end as "searchNotes", case when p.indexed then p.search_zh else '' end as "searchZh",
      case when p.indexed then p.families else '{}' end as families, p.published_on::text as "publishedOn",
      case when p.indexed then coalesce((select jsonb_agg(s.content) from summaries s where s.paper_id = p.id and s.status = 'ok' and s.content is not null), '[]'::jsonb)
        else '[]'::jsonb end as summaries,
      case when p.indexed then coalesce((select t.rules_settings from paper_texts t where t.paper_id = p.id and t.status = 'ok'
        order by t.version desc limit 1), '[]'::jsonb) else '[]'::jsonb end as "textSettings"
    from papers p
    where p.search_rev > ${afterRev}
    order by p.search_rev
    limit ${limit}`);
  return [...rows];
}

/** The list rows of some papers, in the order given (for ranked ids). */
export async function summaryRowsInOrder(db: Db, ids: readonly number[]): Promise<PaperSummaryRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.execute<PaperSummaryRow & Record<string, unknown>>(
    sql`select ${SUMMARY_COLUMNS} from papers p where p.id = any(${sql.param([...ids])}::int[])`,
  );
  const byId = new Map([...rows].map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
