/**
 * The search that was current until the BM25F index (src/services/search) replaced it: ranking in Postgres
 * over the weighted tsvector, with candidate sampling for a large corpus. Frozen so
 * `npm run bench -- --only search --baseline` measures it beside the current search on the same
 * corpus. It needs the `search` column the app no longer has: `addSearchVector` adds it to a bench
 * database. Not used by the app.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { SUMMARY_COLUMNS } from '../db/queries/papers.ts';
import type { SearchHit, SearchPage } from '../db/queries/search.ts';
import { cjkBigrams } from '../src/core/papers/search-terms.ts';

export interface SearchOptions {
  limit: number;
  offset?: number;
  /** Corpora up to this many papers (the planner's count) have every match ranked; larger ones, samples. */
  rankAllUpTo?: number;
}

/**
 * Work caps for a large corpus. Scoring a paper, or testing it in a sequential scan, reads its
 * tsvector from TOAST (~10 µs), and a common word matches a large part of the corpus: so each way of
 * matching hands at most SAMPLE papers to the scoring. Below RANK_ALL_UP_TO papers all are ranked.
 */
const SAMPLE = 60;
const RANK_ALL_UP_TO = 2000;
/** A way of matching expected to find at most this many papers has all of them ranked, at any corpus size. */
const RANK_ALL_MATCHES = 300;
const FUZZY_CANDIDATES = 20;

/**
 * A query term (English word or Chinese bigram): its lexeme (null for a stop word), how many papers
 * have it (at most RANK_ALL_MATCHES + 1 counted; null for frequent terms: see `freq`), its share of
 * papers from the planner's statistics when it is frequent, and a correction when no paper has it.
 */
type Term = { zh: boolean; lex: string | null; papers: number | null; freq: number | null; fix: string | null };

/** Candidates: `s` every word, `l` any word, `za`/`zo` the same in Chinese, `x` titles, `f` trigram. */
type Branch = [name: 's' | 'l' | 'za' | 'zo' | 'x' | 'f', select: SQL];

/**
 * Ranks the corpus for a free-text query. Every candidate is scored as it always was:
 * - full text (title A > abstract B > notes C, English stemming): `ts_rank` over any meaningful
 *   word, +1 when every word matches (`websearch_to_tsquery`: quotes and -exclusions work);
 * - Chinese bigrams against Chinese titles, translations and notes, the same way;
 * - 2 x trigram word similarity to the title when it passes `<%` (misspelled titles).
 * On a large corpus, speed comes from choosing fewer candidates: any-word matches only when too few
 * papers have every word, samples instead of every match, and misspelled words corrected from the
 * planner's statistics instead of the trigram index. See docs/BENCHMARKS.md.
 */
export async function searchPapersPrevious(db: Db, query: string, opts: SearchOptions): Promise<SearchPage> {
  const t = previousTerms(query);
  if (!t.text && t.zh.length === 0) return { hits: [], hasMore: false };
  const offset = opts.offset ?? 0;
  const need = offset + opts.limit + 1;
  const stats = await plannerStats(db);
  const { papers, minFreq } = stats;
  const terms = await probe(db, t, stats);
  const words = terms.filter((w) => !w.zh);
  // reltuples is -1 before the first ANALYZE: rank everything then, as for a small corpus.
  const rankAll = papers <= (opts.rankAllUpTo ?? RANK_ALL_UP_TO);
  const sample = rankAll ? 1_000_000 : Math.max(SAMPLE, need);
  // How many papers a way of matching may find: every term (the rarest decides), or any (they add up).
  const expected = (ts: Term[], every: boolean) => {
    const counts = ts.flatMap((w) => (w.lex === null ? [] : [w.papers ?? (w.freq ?? minFreq ?? 1) * papers]));
    if (counts.length === 0 || minFreq === null) return Infinity;
    return every ? Math.min(...counts) : counts.reduce((a, b) => a + b, 0);
  };
  const limit = (n: number) => (rankAll ? sample : n <= RANK_ALL_MATCHES ? RANK_ALL_MATCHES + 1 : sample);
  const strict = sql`websearch_to_tsquery('english', ${t.text})`;
  const loose = t.strictOnly || t.words.length === 0 ? strict : sql`to_tsquery('english', ${t.words.join(' | ')})`;
  const zhAny = sql`to_tsquery('simple', ${t.zh.join(' | ')})`;
  const zhAll = sql`to_tsquery('simple', ${t.zh.join(' & ')})`;
  const fuzzyTitles = sql`select id from papers where indexed and ${t.text} <% title order by word_similarity(${t.text}, title) desc limit ${FUZZY_CANDIDATES}`;
  // `limit` without `order by`: a scan stops after `sample` matches.
  const branches: Branch[] = [];
  if (t.text) {
    // Quotes, -exclusions and OR make "every word" something else: then no estimate.
    branches.push([
      's',
      sql`select id from papers where search @@ ${strict} limit ${limit(t.strictOnly ? Infinity : expected(words, true))}`,
    ]);
    // Any-word matches score below every all-words match: needed only when fewer than a page have every word.
    branches.push([
      'l',
      sql`select id from papers where search @@ ${loose} and (select count(*) from s) < ${need} limit ${limit(expected(words, false))}`,
    ]);
    // The trigram index reads long posting lists on a large corpus (and planning `<%` takes
    // milliseconds); on a small corpus it is cheap, so there it runs for every query, as it used to.
    if (rankAll) branches.push(['f', fuzzyTitles]);
    const typo = typoCandidates(t, words, sample, fuzzyTitles);
    if (typo && !branches.some(([name]) => name === typo[0])) branches.push(typo);
  }
  if (t.zh.length > 0) {
    const bigrams = terms.filter((w) => w.zh);
    branches.push(['za', sql`select id from papers where search @@ ${zhAll} limit ${limit(expected(bigrams, true))}`]);
    branches.push([
      'zo',
      sql`select id from papers where search @@ ${zhAny} and (select count(*) from za) < ${need} limit ${limit(expected(bigrams, false))}`,
    ]);
  }
  // Scores. Where a branch already proved a match, `@@` is not repeated (one TOAST read, not three).
  const none = sql`null::float4`;
  const fts = t.text
    ? sql`case when c.s then 1 + ts_rank(p.search, ${loose}) when c.l then ts_rank(p.search, ${loose})
        when p.search @@ ${loose} then ts_rank(p.search, ${loose}) + case when p.search @@ ${strict} then 1 else 0 end end`
    : none;
  const zh =
    t.zh.length > 0
      ? sql`case when c.za then 1 + ts_rank(p.search, ${zhAny}) when c.zo then ts_rank(p.search, ${zhAny})
        when p.search @@ ${zhAny} then ts_rank(p.search, ${zhAny}) + case when p.search @@ ${zhAll} then 1 else 0 end end`
      : none;
  // `<%` with its threshold setting, computing the similarity once.
  const fuzzy = t.text
    ? sql`(select 2 * w from (select word_similarity(${t.text}, p.title) as w) v where w >= current_setting('pg_trgm.word_similarity_threshold')::float4)`
    : none;
  const flag = (name: string) => (branches.some(([b]) => b === name) ? sql.raw(`bool_or(k = '${name}')`) : sql`false`);
  const rows = await db.execute<SearchHit & Record<string, unknown>>(sql`
    with ${sql.join(
      branches.map(([name, select]) => sql`${sql.raw(name)} as materialized (${select})`),
      sql`, `,
    )},
    c as (select id, ${flag('s')} as s, ${flag('l')} as l, ${flag('za')} as za, ${flag('zo')} as zo
      from (${sql.join(
        branches.map(([name]) => sql.raw(`select id, '${name}' as k from ${name}`)),
        sql` union all `,
      )}) u group by id)
    select ${SUMMARY_COLUMNS}, greatest(${fts}, ${zh}, ${fuzzy})::float8 as score
    from c join papers p using (id)
    order by score desc nulls last, p.published_on desc nulls last, p.id
    limit ${opts.limit + 1} offset ${offset}`);
  const hits = [...rows].filter((r) => r.score !== null);
  return { hits: hits.slice(0, opts.limit), hasMore: hits.length > opts.limit };
}

/** The planner's statistics on `search` (ANALYZE keeps them): frequent lexemes and their share of papers. */
interface Stats {
  papers: number;
  freq: Map<string, number>;
  minFreq: number | null;
}

/**
 * pg_stats is a view over the catalogs: planning it costs more than the rest of a search's first
 * statement, so it is read at most once a minute per handle (not kept while there are none yet).
 */
const statsCache = new WeakMap<Db, { at: number; stats: Stats }>();

async function plannerStats(db: Db): Promise<Stats> {
  const hit = statsCache.get(db);
  if (hit && Date.now() - hit.at < 60_000) return hit.stats;
  const [row] = await db.execute<{ papers: number; lexemes: string[] | null; freqs: number[] | null }>(sql`
    select (select reltuples::float8 from pg_class where oid = 'papers'::regclass) as papers, most_common_elems::text::text[] as lexemes,
      most_common_elem_freqs::float8[] as freqs
    from (select 1) one left join pg_stats on tablename = 'papers' and attname = 'search'`);
  const lexemes = row?.lexemes ?? [];
  // The frequencies are followed by their minimum, maximum and the share of empty vectors.
  const stats = {
    papers: row?.papers ?? -1,
    freq: new Map(lexemes.map((l, i) => [l, row!.freqs![i]!])),
    minFreq: row?.freqs?.[lexemes.length] ?? null,
  };
  if (lexemes.length > 0) statsCache.set(db, { at: Date.now(), stats });
  return stats;
}

/**
 * Per query term (English word or Chinese bigram): its lexeme, and for terms the statistics do not
 * list, how many papers have it, counted up to RANK_ALL_MATCHES + 1 by an index probe (one per term,
 * so each is planned with its value). A word no paper has gets a correction.
 */
async function probe(db: Db, t: SearchTerms, stats: Stats): Promise<Term[]> {
  if (t.words.length + t.zh.length === 0) return [];
  const cap = sql.raw(String(RANK_ALL_MATCHES + 1));
  // The count only runs for terms the statistics do not list; the correction only for words no paper
  // has: the most similar frequent word with the same initial (a typo rarely changes the first letter).
  const term = (i: number, lex: SQL, q: SQL) => sql`select ${sql.raw(String(i))} as i, lex, papers,
      case when papers = 0 then (select lexeme from unnest((select lexemes from frequent)) lexeme
        where case when left(lexeme, 1) = left(lex, 1) then similarity(lexeme, lex) >= 0.3 else false end
        order by similarity(lexeme, lex) desc, lexeme limit 1) end as fix
    from (select lex, case when lex is not null and not lex = any((select lexemes from frequent)::text[])
      then (select count(*)::int from (select 1 from papers where search @@ ${q} limit ${cap}) hits) end as papers
      from (select ${lex}::text as lex) l offset 0) c`;
  const rows = await db.execute<{ i: number; lex: string | null; papers: number | null; fix: string | null }>(sql`
    with frequent as (select ${sql.param([...stats.freq.keys()])}::text[] as lexemes)
    ${sql.join(
      [
        ...t.words.map((w, i) =>
          term(i, sql`(tsvector_to_array(to_tsvector('english', ${w})))[1]`, sql`plainto_tsquery('english', ${w})`),
        ),
        ...t.zh.map((b, i) => term(t.words.length + i, sql`${b}`, sql`plainto_tsquery('simple', ${b})`)),
      ],
      sql` union all `,
    )} order by i`);
  return [...rows].map((r) => ({
    zh: r.i >= t.words.length,
    lex: r.lex,
    papers: r.papers,
    freq: r.lex === null ? null : (stats.freq.get(r.lex) ?? null),
    fix: r.fix,
  }));
}

/**
 * A word no paper contains (so no paper has every word) may be misspelled. Corrected to a frequent
 * word, titles with every word, corrected, become candidates. A word with no close frequent word
 * falls back to trigram similarity on titles: what the query always did, but slow on a big corpus.
 */
function typoCandidates(t: SearchTerms, words: Term[], sample: number, fuzzyTitles: SQL): Branch | undefined {
  const unknown = words.filter((w) => w.lex !== null && w.papers === 0);
  if (unknown.length === 0) return undefined;
  if (unknown.some((w) => !w.fix)) return ['f', fuzzyTitles];
  // A stem's last letter may differ in titles (polici: policy), so the prefix leaves it out.
  const prefixes = words.flatMap((w, i) =>
    w.lex === null ? [] : [w.papers !== 0 ? prefix(t.words[i]!) : w.fix!.length > 4 ? w.fix!.slice(0, -1) : w.fix!],
  );
  // Prefixes under 3 letters have no trigram for the index.
  const like = prefixes.filter((p) => p.length >= 3).map((p) => sql`title ilike ${`%${p}%`}`);
  return like.length > 0
    ? ['x', sql`select id from papers where ${sql.join(like, sql` and `)} limit ${sample}`]
    : undefined;
}

/** The part of a word its other forms roughly share (reasoning: reason, policy: poli). */
function prefix(word: string): string {
  return word.slice(0, Math.max(3, Math.ceil(word.length * 0.6)));
}

/** Words that carry no topic in a question about papers; dropped from the any-word (loose) query. */
const QUESTION_WORDS = new Set([
  'paper',
  'papers',
  'work',
  'works',
  'study',
  'studies',
  'method',
  'methods',
  'approach',
  'approaches',
  'propose',
  'proposed',
  'proposes',
  'which',
  'what',
  'how',
  'why',
  'when',
  'who',
  'where',
  'does',
  'do',
  'did',
  'use',
  'uses',
  'using',
  'used',
  'about',
  'show',
  'shows',
  'find',
  'me',
  'any',
  'some',
  'there',
  'something',
  'recent',
  'new',
  'model',
  'models',
  'llm',
  'llms',
  'language',
  'large',
]);

interface SearchTerms {
  /** The text as typed, for `websearch_to_tsquery` (all words must match; quotes and -exclusions honoured). */
  text: string;
  /** Words for the any-word query: letters and digits only, so they are safe inside `to_tsquery`. */
  words: string[];
  /** Chinese bigrams of the query. */
  zh: string[];
  /** The user wrote search syntax (quotes, -word, OR): honour it strictly. */
  strictOnly: boolean;
}

export function previousTerms(query: string): SearchTerms {
  const text = query.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const zh = cjkBigrams(text);
  const latin = text.replace(/[\p{Script=Han}]+/gu, ' ');
  const all = (latin.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 || /\d/.test(w));
  const meaningful = all.filter((w) => !QUESTION_WORDS.has(w));
  const words = [...new Set(meaningful.length > 0 ? meaningful : all)];
  const strictOnly = /"|(^|\s)-\S|\sor\s/i.test(latin);
  return { text: latin.trim(), words, zh, strictOnly };
}

/** Adds the tsvector column and GIN index the previous search (and the first baseline) read. */
export async function addSearchVector(db: Db): Promise<void> {
  await db.execute(
    sql.raw(`alter table papers add column if not exists search tsvector generated always as (case when indexed then
    setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(abstract, '')), 'B')
    || setweight(to_tsvector('english', coalesce(search_notes, '')), 'C') || setweight(to_tsvector('simple', coalesce(search_zh, '')), 'B') end) stored`),
  );
  await db.execute(sql.raw('create index if not exists papers_search_idx on papers using gin (search)'));
  await db.execute(sql.raw('analyze papers'));
}
