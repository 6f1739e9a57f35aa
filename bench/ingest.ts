/**
 * Ingest throughput: a synthetic arXiv RSS feed (bench/feeds.ts, 20k items by default) parsed
 * (`parseArxivRss`), classified and upserted (`ingestCandidates`, which classifies new papers itself)
 * end to end, on a fresh database per run; then the same feed again on the same database (the
 * idempotent re-run: nothing new). Baseline: the row-by-row upsert of bench/ingest-baseline.ts, on
 * a prefix of the same feed (the generator is sequential, so the first N items are identical), with
 * the batch upsert timed on the same prefix for a like-for-like ratio. Also: the classifier alone
 * over the parsed candidates, and one CPU-profiled batch run (not counted in the timings) that says
 * where the Node process spends the time.
 */
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ingestCandidates, type IngestStats } from '../src/services/ingest/ingest.ts';
import type { DbHandle } from '../db/client.ts';
import { classifyPaper } from '../src/core/papers/classify.ts';
import { parseArxivRss } from '../src/services/sources/arxiv-rss.ts';
import { origin } from './cpuprof.ts';
import { syntheticArxivFeed } from './feeds.ts';
import { ingestRowByRow, type RowByRowStats } from './ingest-baseline.ts';
import type { BenchServer } from './pg.ts';
import { median, round } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

export interface IngestBenchOptions {
  items: number;
  /** Items for the row-by-row baseline (a prefix of the same feed). */
  baselineItems: number;
  runs: number;
  seed: number;
  log: (s: string) => void;
}

interface Stage {
  /** Median over the runs. */
  parseMs: number;
  upsertMs: number;
  totalMs: number;
  /** items / totalMs (end to end) and items / upsertMs. */
  itemsPerSecond: number;
  upsertItemsPerSecond: number;
  samples: { parseMs: number; upsertMs: number }[];
}

export interface IngestResult {
  items: number;
  feedMb: number;
  buildFeedMs: number;
  /** Items the parser skipped (should be 0) and candidates it produced. */
  candidates: number;
  skipped: number;
  runs: number;
  batchSize: number;
  postgres: { fsync: string; synchronousCommit: string };
  /** First run's stats of the cold ingest. */
  stats: IngestStats;
  rows: { papers: number; sources: number };
  batch: Stage;
  rerun: Stage & { new: number; updated: number; sources: number };
  /** Row-by-row and batch over the same prefix of `baselineItems` items, on fresh databases. */
  baseline: { items: number; rowByRow: Stage; batch: Stage; stats: RowByRowStats; rowsMatch: boolean };
  /** Batch end to end (full feed) / row-by-row end to end; and upsert-only on the same prefix. */
  ratio: { endToEnd: number; upsertSamePrefix: number };
  classifier: { papers: number; ms: number; papersPerSecond: number; family: number };
  /** Where the time of one batch run (parse + ingest, full feed) goes, from the CPU profile. */
  profile: { wallMs: number; parseMs: number; ingestMs: number; byOrigin: [string, number][] };
}

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

function stage(items: number, samples: { parseMs: number; upsertMs: number }[]): Stage {
  const parseMs = median(samples.map((s) => s.parseMs));
  const upsertMs = median(samples.map((s) => s.upsertMs));
  const totalMs = median(samples.map((s) => s.parseMs + s.upsertMs));
  return {
    parseMs: round(parseMs, 0),
    upsertMs: round(upsertMs, 0),
    totalMs: round(totalMs, 0),
    itemsPerSecond: rate(items, totalMs),
    upsertItemsPerSecond: rate(items, upsertMs),
    samples: samples.map((s) => ({ parseMs: round(s.parseMs, 0), upsertMs: round(s.upsertMs, 0) })),
  };
}

async function counts(h: DbHandle): Promise<{ papers: number; sources: number }> {
  const [row] = await h.sql<{ papers: number; sources: number }[]>`
    select (select count(*) from papers)::int as papers, (select count(*) from paper_sources)::int as sources`;
  return row!;
}

async function clock<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

export async function benchIngest(bench: BenchServer, opts: IngestBenchOptions): Promise<IngestResult> {
  const { log } = opts;
  const t0 = performance.now();
  const feed = syntheticArxivFeed({ items: opts.items, seed: opts.seed });
  const buildFeedMs = performance.now() - t0;
  const feedMb = round(Buffer.byteLength(feed.xml) / 2 ** 20, 1);
  log(`ingest: feed of ${opts.items} items, ${feedMb} MB, built in ${Math.round(buildFeedMs)} ms`);

  // Warm-up parse (compiles the parser paths); its candidates feed the classifier measurement.
  const warm = await parseArxivRss(feed.xml);
  const candidates = warm.candidates;

  // Classifier alone, papers/s: every candidate, each run.
  const classifyMs: number[] = [];
  let family = 0;
  for (let i = 0; i < opts.runs; i++) {
    let fam = 0;
    const t = performance.now();
    for (const c of candidates) if (classifyPaper(c).grpoFamily) fam++;
    classifyMs.push(performance.now() - t);
    family = fam;
  }
  const classifier = {
    papers: candidates.length,
    ms: round(median(classifyMs), 0),
    papersPerSecond: rate(candidates.length, median(classifyMs)),
    family,
  };
  log(`ingest: classifier ${classifier.papersPerSecond} papers/s (${classifier.family} GRPO-family)`);

  // Batch: parse + ingestCandidates on a fresh database, then the same again (re-run).
  const batchSamples: { parseMs: number; upsertMs: number }[] = [];
  const rerunSamples: { parseMs: number; upsertMs: number }[] = [];
  let stats: IngestStats | undefined;
  let rerunStats: IngestStats | undefined;
  let rows = { papers: 0, sources: 0 };
  let postgres = { fsync: '', synchronousCommit: '' };
  for (let i = 0; i < opts.runs; i++) {
    const h = await bench.freshDb(`bench_ingest_${i}`);
    try {
      const [[fs], [sc]] = await Promise.all([h.sql`show fsync`, h.sql`show synchronous_commit`]);
      postgres = { fsync: String(fs?.['fsync']), synchronousCommit: String(sc?.['synchronous_commit']) };
      const newsAt = new Date();
      const [parsed, parseMs] = await clock(() => parseArxivRss(feed.xml));
      const [s, upsertMs] = await clock(() =>
        ingestCandidates({ db: h.db, now: () => new Date() }, parsed.candidates, { newsAt }),
      );
      batchSamples.push({ parseMs, upsertMs });
      stats ??= s;
      rows = await counts(h);
      const [again, parse2Ms] = await clock(() => parseArxivRss(feed.xml));
      const [s2, upsert2Ms] = await clock(() =>
        ingestCandidates({ db: h.db, now: () => new Date() }, again.candidates, { newsAt }),
      );
      rerunSamples.push({ parseMs: parse2Ms, upsertMs: upsert2Ms });
      if (!rerunStats || s2.new + s2.updated + s2.sources > rerunStats.new + rerunStats.updated + rerunStats.sources)
        rerunStats = s2;
      log(
        `ingest: batch run ${i + 1}/${opts.runs}: parse ${Math.round(parseMs)} ms, ingest ${Math.round(upsertMs)} ms ` +
          `(${rate(opts.items, parseMs + upsertMs)} items/s); re-run ${Math.round(parse2Ms + upsert2Ms)} ms, new ${s2.new}`,
      );
    } finally {
      await h.close();
    }
  }

  // Baseline: row-by-row vs batch on the same prefix, each on a fresh database.
  const prefix =
    opts.baselineItems === opts.items
      ? feed.xml
      : syntheticArxivFeed({ items: opts.baselineItems, seed: opts.seed }).xml;
  const rowSamples: { parseMs: number; upsertMs: number }[] = [];
  const prefixSamples: { parseMs: number; upsertMs: number }[] = [];
  let baseStats: RowByRowStats | undefined;
  let rowsMatch = true;
  for (let i = 0; i < opts.runs; i++) {
    const base = await bench.freshDb(`bench_ingest_rowbyrow_${i}`);
    const batch = await bench.freshDb(`bench_ingest_prefix_${i}`);
    try {
      const newsAt = new Date();
      const [parsed, parseMs] = await clock(() => parseArxivRss(prefix));
      const [s, upsertMs] = await clock(() => ingestRowByRow(base.db, parsed.candidates, { newsAt }));
      rowSamples.push({ parseMs, upsertMs });
      baseStats ??= s;
      const [parsed2, parse2Ms] = await clock(() => parseArxivRss(prefix));
      const [, upsert2Ms] = await clock(() =>
        ingestCandidates({ db: batch.db, now: () => new Date() }, parsed2.candidates, { newsAt }),
      );
      prefixSamples.push({ parseMs: parse2Ms, upsertMs: upsert2Ms });
      const [a, b] = await Promise.all([counts(base), counts(batch)]);
      rowsMatch &&= a.papers === b.papers && a.sources === b.sources;
      log(
        `ingest: baseline run ${i + 1}/${opts.runs} (${opts.baselineItems} items): row-by-row ${Math.round(upsertMs)} ms ` +
          `(${rate(opts.baselineItems, upsertMs)} items/s upsert only), batch ${Math.round(upsert2Ms)} ms`,
      );
    } finally {
      await Promise.all([base.close(), batch.close()]);
    }
  }

  const profile = await profiledRun(bench, feed.xml);
  log(`ingest: profiled run: ${profile.wallMs} ms`);

  const batchStage = stage(opts.items, batchSamples);
  const rowStage = stage(opts.baselineItems, rowSamples);
  const prefixStage = stage(opts.baselineItems, prefixSamples);
  return {
    items: opts.items,
    feedMb,
    buildFeedMs: round(buildFeedMs, 0),
    candidates: candidates.length,
    skipped: warm.skipped.length,
    runs: opts.runs,
    batchSize: 1000,
    postgres,
    stats: stats!,
    rows,
    batch: batchStage,
    rerun: {
      ...stage(opts.items, rerunSamples),
      new: rerunStats!.new,
      updated: rerunStats!.updated,
      sources: rerunStats!.sources,
    },
    baseline: { items: opts.baselineItems, rowByRow: rowStage, batch: prefixStage, stats: baseStats!, rowsMatch },
    ratio: {
      endToEnd: round(batchStage.itemsPerSecond / rowStage.itemsPerSecond, 1),
      upsertSamePrefix: round(prefixStage.upsertItemsPerSecond / rowStage.upsertItemsPerSecond, 1),
    },
    classifier,
    profile,
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * One batch run (parse + ingest, fresh database) under the V8 sampling profiler of this process:
 * self time by origin, our files by path; `(idle)` is the Node process waiting, mostly for Postgres.
 */
async function profiledRun(bench: BenchServer, xml: string): Promise<IngestResult['profile']> {
  const h = await bench.freshDb('bench_ingest_profile');
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    const t0 = performance.now();
    const parsed = await parseArxivRss(xml);
    const t1 = performance.now();
    await ingestCandidates({ db: h.db, now: () => new Date() }, parsed.candidates, { newsAt: new Date() });
    const t2 = performance.now();
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    return {
      wallMs: round(t2 - t0, 0),
      parseMs: round(t1 - t0, 0),
      ingestMs: round(t2 - t1, 0),
      byOrigin: selfTime(profile),
    };
  } finally {
    session.disconnect();
    await h.close();
  }
}

function selfTime(prof: CpuProfile): [string, number][] {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  (prof.samples ?? []).forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const { url, functionName } = node.callFrame;
    const path = url.replace(/^file:\/\//, '');
    const key =
      path.startsWith(ROOT) && !path.includes('node_modules')
        ? path.slice(ROOT.length + 1)
        : origin(url, functionName, ROOT);
    totals.set(key, (totals.get(key) ?? 0) + (prof.timeDeltas?.[i] ?? 0) / 1000);
  });
  const sorted = [...totals].sort((a, b) => b[1] - a[1]).map(([k, ms]): [string, number] => [k, Math.round(ms)]);
  const top = sorted.slice(0, 12);
  const rest = sorted.slice(12).reduce((n, [, ms]) => n + ms, 0);
  return rest > 0 ? [...top, ['(everything else)', rest]] : top;
}
