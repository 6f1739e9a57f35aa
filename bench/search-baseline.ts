/**
 * The search query as first written (db/queries/search.ts before the benchmark work), frozen so
 * `npm run bench -- --baseline` can measure it beside the current version on the same corpus.
 * Not used by the app.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { SearchPage } from '../db/queries/search.ts';
import { SUMMARY_COLUMNS } from '../db/queries/papers.ts';
import { previousTerms } from './search-previous.ts';

/** How many full-text and fuzzy candidates are ranked before the page is cut. */
const CANDIDATES = 200;
const FUZZY_CANDIDATES = 20;

/**
 * Ranks the corpus for a free-text query:
 * - any-word full text (title A > abstract B > notes C; English stemming), with a bonus when every
 *   word matches (`websearch_to_tsquery`, so quotes and -exclusions work), so paraphrased questions
 *   still find papers that use only some of their words;
 * - Chinese bigrams against Chinese titles, translations and notes;
 * - trigram word similarity on titles, for misspellings.
 */
export async function searchPapersBaseline(
  db: Db,
  query: string,
  opts: { limit: number; offset?: number },
): Promise<SearchPage> {
  const t = previousTerms(query);
  const strict = sql`websearch_to_tsquery('english', ${t.text})`;
  const parts: SQL[] = [];
  if (t.text) {
    const loose = t.strictOnly || t.words.length === 0 ? strict : sql`to_tsquery('english', ${t.words.join(' | ')})`;
    parts.push(sql`(select id, ts_rank(search, ${loose}) + case when search @@ ${strict} then 1 else 0 end as score
      from papers where search @@ ${loose} order by score desc limit ${CANDIDATES})`);
    parts.push(sql`(select id, 2 * word_similarity(${t.text}, title) as score
      from papers where ${t.text} <% title order by score desc limit ${FUZZY_CANDIDATES})`);
  }
  if (t.zh.length > 0) {
    const any = sql`to_tsquery('simple', ${t.zh.join(' | ')})`;
    const all = sql`to_tsquery('simple', ${t.zh.join(' & ')})`;
    parts.push(sql`(select id, ts_rank(search, ${any}) + case when search @@ ${all} then 1 else 0 end as score
      from papers where search @@ ${any} order by score desc limit ${CANDIDATES})`);
  }
  if (parts.length === 0) return { hits: [], hasMore: false };
  const offset = opts.offset ?? 0;
  const rows = await db.execute<SearchPage['hits'][number] & Record<string, unknown>>(sql`
    with candidates as (${sql.join(parts, sql` union all `)}),
    best as (select id, max(score) as score from candidates group by id)
    select ${SUMMARY_COLUMNS}, best.score::float8 as score
    from best join papers p on p.id = best.id
    order by best.score desc, p.published_on desc nulls last, p.id
    limit ${opts.limit + 1} offset ${offset}`);
  const hits = [...rows];
  return { hits: hits.slice(0, opts.limit), hasMore: hits.length > opts.limit };
}
