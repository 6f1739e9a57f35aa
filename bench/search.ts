/**
 * Search latency at several corpus sizes: load a synthetic corpus into a fresh database, build the
 * index (timed, with the memory it takes), warm up, then time every query of the fixed set `reps`
 * times through the real searchPapers; beside it, in the same run, the Postgres ranking it replaced
 * (bench/search-previous.ts) and, with --baseline, the first version (bench/search-baseline.ts).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Db } from '../db/client.ts';
import { searchIndex, searchPapers, type SearchPage } from '../src/services/search/search.ts';
import { progressBar } from '../src/core/progress.ts';
import { generateCorpus } from './corpus.ts';
import { loadCorpus } from './load.ts';
import type { BenchServer } from './pg.ts';
import { CLASSES, QUERIES } from './queries.ts';
import { searchPapersBaseline } from './search-baseline.ts';
import { addSearchVector, searchPapersPrevious } from './search-previous.ts';
import { round, summarize, type Summary } from './stats.ts';

type SearchFn = (db: Db, query: string, opts: { limit: number }) => Promise<SearchPage>;
const VARIANTS: Record<string, SearchFn> = {
  current: searchPapers,
  previous: searchPapersPrevious,
  baseline: searchPapersBaseline,
};

export interface QueryResult {
  cls: string;
  q: string;
  p50: number;
  p95: number;
  hits: number;
  top: string | null;
  /** The ids of the first page, to compare variants. */
  ids: number[];
  /** Where the expected landmark paper ranked (1-based), null when not in the top 10. */
  expectedRank?: number | null;
  /** How many of this variant's top 10 the previous search also returned. */
  overlapWithPrevious?: number;
}

export interface VariantResult {
  overall: Summary;
  classes: Record<string, Summary>;
  queries: QueryResult[];
}

export interface SizeResult {
  papers: number;
  loadMs: number;
  tableMb: number;
  /** The current search's index: build time on the first search, and the process memory it added. */
  index: { buildMs: number; heapMb: number; rssMb: number };
  /** 1-minute load average before and after the timings: other work on the machine inflates them. */
  loadAverage: [number, number];
  variants: Record<string, VariantResult>;
}

export interface SearchOptions {
  sizes: number[];
  seed: number;
  reps: number;
  /** Also time the frozen first version of searchPapers (bench/search-baseline.ts). */
  baseline: boolean;
}

export async function benchSearch(bench: BenchServer, opts: SearchOptions): Promise<SizeResult[]> {
  const out: SizeResult[] = [];
  for (const size of opts.sizes) {
    const handle = await bench.freshDb(`bench_search_${size}`);
    try {
      const bar = progressBar(`Generating ${size.toLocaleString('en')} papers`);
      const t0 = performance.now();
      await loadCorpus(handle.sql, generateCorpus(opts.seed, size), (n) => bar.update(n, size));
      bar.stop();
      const loadMs = round(performance.now() - t0, 0);
      const [{ mb }] = (await handle.sql`select pg_total_relation_size('papers') / 1048576.0 as mb`) as unknown as [
        { mb: string },
      ];
      const names = opts.baseline ? ['baseline', 'previous', 'current'] : ['previous', 'current'];
      const variants: Record<string, VariantResult> = {};
      const loadBefore = round(os.loadavg()[0]!, 2);
      const before = process.memoryUsage();
      const t1 = performance.now();
      await searchIndex(handle.db);
      const index = {
        buildMs: round(performance.now() - t1, 0),
        heapMb: round((process.memoryUsage().heapUsed - before.heapUsed) / 2 ** 20, 0),
        rssMb: round((process.memoryUsage().rss - before.rss) / 2 ** 20, 0),
      };
      await addSearchVector(handle.db); // the previous and first versions rank over it
      for (const name of names) {
        // No checkpoint (the load's, or a timed one) may land in the middle of the timings.
        await handle.sql`checkpoint`;
        variants[name] = await timeVariant(handle.db, VARIANTS[name]!, opts.reps);
      }
      markOverlap(variants.current!, variants.previous!);
      out.push({
        papers: size,
        loadMs,
        tableMb: round(Number(mb), 0),
        index,
        loadAverage: [loadBefore, round(os.loadavg()[0]!, 2)],
        variants,
      });
    } finally {
      await handle.close();
    }
  }
  return out;
}

export async function timeVariant(db: Db, search: SearchFn, reps: number): Promise<VariantResult> {
  // Warm-up: two passes, so plans, the buffer cache and the tsquery parser are hot for every query.
  for (let i = 0; i < 2; i++) for (const { q } of QUERIES) await search(db, q, { limit: 10 });
  const samples = QUERIES.map(() => [] as number[]);
  const last: SearchPage[] = [];
  // Rounds over the whole set (not one query `reps` times in a row), so no query benefits from
  // having the cache to itself.
  for (let r = 0; r < reps; r++) {
    for (const [i, { q }] of QUERIES.entries()) {
      const t0 = performance.now();
      last[i] = await search(db, q, { limit: 10 });
      samples[i]!.push(performance.now() - t0);
    }
  }
  const queries = QUERIES.map(({ cls, q, expect }, i): QueryResult => {
    const s = summarize(samples[i]!);
    const hits = last[i]?.hits ?? [];
    const rank = expect ? hits.findIndex((h) => h.title === expect) + 1 || null : undefined;
    return {
      cls,
      q,
      p50: s.p50,
      p95: s.p95,
      hits: hits.length,
      top: hits[0]?.title ?? null,
      ids: hits.map((h) => h.id),
      expectedRank: rank,
    };
  });
  const classes = Object.fromEntries(
    CLASSES.map((c) => [c, summarize(QUERIES.flatMap((x, i) => (x.cls === c ? samples[i]! : [])))]),
  );
  return { overall: summarize(samples.flat()), classes, queries };
}

function markOverlap(current: VariantResult, previous: VariantResult): void {
  current.queries.forEach((q, i) => {
    const base = new Set(previous.queries[i]?.ids);
    q.overlapWithPrevious = q.ids.filter((id) => base.has(id)).length;
  });
}
