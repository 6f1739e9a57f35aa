/**
 * Bulk-loads a synthetic corpus with COPY (one round trip for the whole corpus, no per-row
 * parameters), then VACUUM ANALYZE so the planner sees the real term and row statistics.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type postgres from 'postgres';
import type { BenchPaper } from './corpus.ts';

const COLUMNS = [
  'arxiv_id',
  'arxiv_version',
  'title_key',
  'title',
  'title_zh',
  'abstract',
  'abstract_zh',
  'authors',
  'author_count',
  'published_on',
  'topics',
  'search_notes',
  'search_zh',
] as const;

/** COPY text format: backslash escapes for the delimiter, newlines and the backslash; `\N` is null. */
function field(v: string | number | null): string {
  if (v === null) return '\\N';
  return String(v).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

/** A text[] literal; elements are always quoted, so spaces, commas and braces are safe. */
function arrayLiteral(xs: string[]): string {
  return `{${xs.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

function row(p: BenchPaper): string {
  const values = [
    p.arxivId,
    1,
    p.titleKey,
    p.title,
    p.titleZh,
    p.abstract,
    p.abstractZh,
    arrayLiteral(p.authors),
    p.authors.length,
    p.publishedOn,
    arrayLiteral(p.topics),
    p.searchNotes,
    p.searchZh,
  ];
  return `${values.map(field).join('\t')}\n`;
}

/**
 * Streams the papers into `papers`. `onRow` is called every 1,000 rows for a progress bar.
 * The GIN indexes are dropped during the load and rebuilt afterwards from their own definitions
 * (`pg_indexes`), which is several times faster than maintaining them row by row.
 */
export async function loadCorpus(
  sql: postgres.Sql,
  papers: Iterable<BenchPaper>,
  onRow?: (n: number) => void,
): Promise<void> {
  const indexes = await sql<{ name: string; def: string }[]>`
    select indexname as name, indexdef as def from pg_indexes
    where tablename = 'papers' and indexdef ilike '%using gin%'`;
  for (const i of indexes) await sql.unsafe(`drop index "${i.name}"`);
  let n = 0;
  const lines = function* () {
    for (const p of papers) {
      yield row(p);
      if (++n % 1000 === 0) onRow?.(n);
    }
  };
  const stream = await sql`copy papers (${sql.unsafe(COLUMNS.join(', '))}) from stdin`.writable();
  await pipeline(Readable.from(lines()), stream);
  onRow?.(n);
  await sql.begin(async (tx) => {
    await tx.unsafe(`set local maintenance_work_mem = '256MB'`);
    for (const i of indexes) await tx.unsafe(i.def);
  });
  // VACUUM too: a live database has hint bits set and a visibility map; a fresh load does not.
  await sql.unsafe('vacuum analyze papers');
  // Write the load out now, or the checkpoint lands minutes later, in the middle of the timings.
  await sql.unsafe('checkpoint');
}
