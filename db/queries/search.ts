import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { searchTerms, type SearchTerms } from '../../src/papers/search-terms.ts';
import { type PaperSummaryRow, SUMMARY_COLUMNS } from './papers.ts';

export interface SearchHit extends PaperSummaryRow {
  score: number;
}

export interface SearchPage {
  hits: SearchHit[];
  hasMore: boolean;
}

export interface SearchOptions {
  limit: number;
  offset?: number;
  /** Corpora up to this many papers (the planner's count) have every match ranked; larger ones, a sample. */
  rankAllUpTo?: number;
}

/**
 * Work caps. Scoring a paper reads its tsvector from TOAST (~10 µs) and a common word matches most
 * of a large corpus, so there each way of matching hands at most SAMPLE papers to the scoring.
 */
const SAMPLE = 100;
const RANK_ALL_UP_TO = 2000;
const FUZZY_CANDIDATES = 20;

interface Query {
  t: SearchTerms;
  /** Every word (websearch syntax honoured): a match scores +1. */
  strict: SQL;
  /** Any meaningful word. */
  loose: SQL;
  zhAny: SQL;
  zhAll: SQL;
  /** True when every match is ranked (a one-time condition). */
  rankAll: SQL;
  /** How many papers one way of matching may contribute. */
  sample: SQL;
}

/** Candidates: `s` every word, `l` any word, `za`/`zo` the same in Chinese, `x` titles, `f` trigram. */
type Branch = [name: 's' | 'l' | 'za' | 'zo' | 'x' | 'f', select: SQL];
type Row = SearchHit & { strictCount: number };

/**
 * Ranks the corpus for a free-text query. Every candidate is scored as it always was:
 * - full text (title A > abstract B > notes C, English stemming): `ts_rank` over any meaningful
 *   word, +1 when every word matches (`websearch_to_tsquery`: quotes and -exclusions work);
 * - Chinese bigrams against Chinese titles, translations and notes, the same way;
 * - 2 x trigram word similarity to the title when it passes `<%` (misspelled titles).
 * Speed on a large corpus comes from choosing fewer candidates: any-word matches only when too few
 * papers have every word, samples instead of every match, and the trigram index (long posting
 * lists) only for words no paper contains. See docs/BENCHMARKS.md.
 */
export async function searchPapers(db: Db, query: string, opts: SearchOptions): Promise<SearchPage> {
  const t = searchTerms(query);
  if (!t.text && t.zh.length === 0) return { hits: [], hasMore: false };
  const offset = opts.offset ?? 0;
  const need = offset + opts.limit + 1;
  const all = sql.raw(String(opts.rankAllUpTo ?? RANK_ALL_UP_TO));
  const q: Query = {
    t,
    strict: sql`websearch_to_tsquery('english', ${t.text})`,
    loose: t.strictOnly || t.words.length === 0 ? sql`websearch_to_tsquery('english', ${t.text})` : sql`to_tsquery('english', ${t.words.join(' | ')})`,
    zhAny: sql`to_tsquery('simple', ${t.zh.join(' | ')})`,
    zhAll: sql`to_tsquery('simple', ${t.zh.join(' & ')})`,
    // reltuples is -1 until the first ANALYZE: rank everything then, as for a small corpus.
    rankAll: sql`(select reltuples <= ${all} from pg_class where oid = 'papers'::regclass)`,
    sample: sql`(select case when reltuples <= ${all} then 1000000 else ${sql.raw(String(Math.max(SAMPLE, need)))} end
      from pg_class where oid = 'papers'::regclass)`,
  };
  // `limit` without `order by`: the scan stops after `sample` matches.
  const first: Branch[] = [];
  if (t.text) {
    first.push(['s', sql`select id from papers where search @@ ${q.strict} limit ${q.sample}`]);
    // Any-word matches score below every all-words match: needed only when fewer than a page have every word.
    first.push(['l', sql`select id from papers where search @@ ${q.loose} and (select count(*) from s) < ${need} limit ${q.sample}`]);
    first.push(['f', fuzzyTitles(q, q.rankAll)]);
  }
  if (t.zh.length > 0) {
    first.push(['za', sql`select id from papers where search @@ ${q.zhAll} limit ${q.sample}`]);
    first.push(['zo', sql`select id from papers where search @@ ${q.zhAny} and (select count(*) from za) < ${need} limit ${q.sample}`]);
  }
  let rows = await rank(db, q, first, need);
  if (t.words.length > 0 && (rows[0]?.strictCount ?? 0) < need) {
    const typo = await typoBranch(db, q);
    if (typo) rows = merge(rows, await rank(db, q, [typo], need));
  }
  const page = rows.slice(offset, offset + opts.limit + 1).map(({ strictCount: _n, ...hit }) => hit);
  return { hits: page.slice(0, opts.limit), hasMore: page.length > opts.limit };
}

/**
 * Scores the branches' candidates; returns the best `need` and how many papers matched every word.
 * Where a branch already proved a match, `@@` is not repeated (one TOAST read per paper, not three).
 */
async function rank(db: Db, q: Query, branches: Branch[], need: number): Promise<Row[]> {
  const { t } = q;
  const none = sql`null::float4`;
  const has = (name: string) => branches.some(([b]) => b === name);
  const flag = (name: string) => (has(name) ? sql.raw(`bool_or(k = '${name}')`) : sql`false`);
  const fts = t.text
    ? sql`case when c.s then 1 + ts_rank(p.search, ${q.loose}) when c.l then ts_rank(p.search, ${q.loose})
        when p.search @@ ${q.loose} then ts_rank(p.search, ${q.loose}) + case when p.search @@ ${q.strict} then 1 else 0 end end`
    : none;
  const zh = t.zh.length > 0
    ? sql`case when c.za then 1 + ts_rank(p.search, ${q.zhAny}) when c.zo then ts_rank(p.search, ${q.zhAny})
        when p.search @@ ${q.zhAny} then ts_rank(p.search, ${q.zhAny}) + case when p.search @@ ${q.zhAll} then 1 else 0 end end`
    : none;
  // `<%` with its threshold setting, computing the similarity once.
  const fuzzy = t.text
    ? sql`(select 2 * w from (select word_similarity(${t.text}, p.title) as w) v where w >= current_setting('pg_trgm.word_similarity_threshold')::float4)`
    : none;
  const ctes = branches.map(([name, select]) => sql`${sql.raw(name)} as materialized (${select})`);
  const kinds = branches.map(([name]) => sql.raw(`select id, '${name}' as k from ${name}`));
  const rows = await db.execute<Row & Record<string, unknown>>(sql`
    with ${sql.join(ctes, sql`, `)},
    c as (select id, ${flag('s')} as s, ${flag('l')} as l, ${flag('za')} as za, ${flag('zo')} as zo
      from (${sql.join(kinds, sql` union all `)}) u group by id)
    select ${SUMMARY_COLUMNS}, greatest(${fts}, ${zh}, ${fuzzy})::float8 as score,
      ${has('s') ? sql`(select count(*) from s)` : sql`0`}::int as "strictCount"
    from c join papers p using (id)
    order by score desc nulls last, p.published_on desc nulls last, p.id
    limit ${need}`);
  return [...rows].filter((r) => r.score !== null);
}

/**
 * Too few papers have every word: maybe one is misspelled. A word no paper contains is corrected to
 * the most similar frequent word of the corpus (the planner's statistics: no scan), and titles with
 * every word, corrected, become candidates. A word with no such neighbour falls back to trigram
 * similarity on titles: what the original query did, but it reads long posting lists on a big corpus.
 */
async function typoBranch(db: Db, q: Query): Promise<Branch | undefined> {
  // One probe per word, so each is planned with its value: an index probe for a rare word, the
  // first rows of a sequential scan for a common one.
  const probes = q.t.words.map((w, i) => sql`select ${sql.raw(String(i))} as i, (tsvector_to_array(to_tsvector('english', ${w})))[1] as lex,
    exists (select 1 from papers where search @@ plainto_tsquery('english', ${w})) as known`);
  const rows = await db.execute<{ lex: string | null; known: boolean; fix: string | null }>(sql`
    with w as (${sql.join(probes, sql` union all `)}),
    mc as materialized (select most_common_elems::text::text[] as lexemes from pg_stats where tablename = 'papers' and attname = 'search' limit 1)
    select w.lex, w.known, case when not w.known and w.lex is not null then (
      select lexeme from (select lexeme from mc, unnest(mc.lexemes) lexeme where left(lexeme, 1) = left(w.lex, 1) offset 0) same_initial
      where similarity(lexeme, w.lex) >= 0.3 order by similarity(lexeme, w.lex) desc, lexeme limit 1) end as fix
    from w order by w.i`);
  const words = [...rows];
  const unknown = words.filter((r) => r.lex !== null && !r.known);
  if (unknown.length === 0) return undefined;
  if (unknown.some((r) => !r.fix)) return ['f', fuzzyTitles(q)];
  // A stem's last letter may differ in titles (polici: policy), so the prefix leaves it out.
  const prefixes = words.flatMap((r, i) => (r.lex === null ? [] : [r.known ? prefix(q.t.words[i]!) : r.fix!.length > 4 ? r.fix!.slice(0, -1) : r.fix!]));
  // Prefixes under 3 letters have no trigram for the index.
  const like = prefixes.filter((p) => p.length >= 3).map((p) => sql`title ilike ${`%${p}%`}`);
  return like.length > 0 ? ['x', sql`select id from papers where ${sql.join(like, sql` and `)} limit ${q.sample}`] : undefined;
}

/** The titles most similar to the query, by the trigram index. */
function fuzzyTitles(q: Query, and = sql`true`): SQL {
  return sql`select id from papers where ${q.t.text} <% title and ${and}
    order by word_similarity(${q.t.text}, title) desc limit ${FUZZY_CANDIDATES}`;
}

/** The part of a word its other forms roughly share (reasoning: reason, policy: poli). */
function prefix(word: string): string {
  return word.slice(0, Math.max(3, Math.ceil(word.length * 0.6)));
}

/** Two rounds' best rows as one ranking: score, then newest (undated last), then id. */
function merge(a: Row[], b: Row[]): Row[] {
  const byId = new Map<number, Row>();
  for (const r of [...a, ...b]) if ((byId.get(r.id)?.score ?? -1) < r.score) byId.set(r.id, r);
  const date = (r: Row) => r.publishedOn ?? '';
  return [...byId.values()].sort((x, y) => y.score - x.score || date(y).localeCompare(date(x)) || x.id - y.id);
}
