/**
 * Seed import time: `importSeeds` into a fresh, migrated database (cold: the first import), then
 * again into the same database (warm: idempotent, nothing changes). Parsing alone is timed too, to
 * split the import into reading the seed files and writing the database.
 */
import { performance } from 'node:perf_hooks';
import { mergeSeedPapers } from '../seeds/corpus.ts';
import { importSeeds, SEED_DIR, type ImportStats } from '../seeds/import.ts';
import { loadSeedCorpus } from '../seeds/parse/index.ts';
import { cachedRepair } from '../seeds/repair/cache.ts';
import { repairMojibake } from '../seeds/repair/index.ts';
import type { BenchServer } from './pg.ts';
import { median, round, timed } from './stats.ts';

export interface SeedResult {
  runs: number;
  coldMs: number;
  warmMs: number;
  /** Parsing with the build's repair cache, read afresh each run (what a first start pays). */
  parseMs: number;
  /** Parsing with the live repair (the baseline: every first start before the cache). */
  parseLiveMs: number;
  samples: { coldMs: number; warmMs: number }[];
  papers: number;
  /** The second import's counts: all zero when it is idempotent. */
  warmChanged: number;
}

const changed = (s: ImportStats) =>
  s.papers.added + s.papers.updated + s.notes.added + s.citations.added + s.sources.added;

export async function benchSeed(
  bench: BenchServer,
  opts: { runs: number; log: (s: string) => void },
): Promise<SeedResult> {
  const parse: number[] = [];
  const parseLive: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    for (const [repair, into] of [
      [cachedRepair(), parse],
      [repairMojibake, parseLive],
    ] as const) {
      const t0 = performance.now();
      mergeSeedPapers((await loadSeedCorpus(SEED_DIR, { repair })).papers);
      into.push(performance.now() - t0);
    }
  }
  const samples: SeedResult['samples'] = [];
  let papers = 0;
  let warmChanged = 0;
  for (let i = 0; i < opts.runs; i++) {
    const handle = await bench.freshDb(`bench_seed_${i}`);
    try {
      const cold = await timed(() => importSeeds({ db: handle.db, now: () => new Date() }, SEED_DIR));
      const warm = await timed(() => importSeeds({ db: handle.db, now: () => new Date() }, SEED_DIR));
      papers = cold.value.papers.added;
      warmChanged = Math.max(warmChanged, changed(warm.value));
      samples.push({ coldMs: round(cold.ms, 0), warmMs: round(warm.ms, 0) });
      opts.log(`seed: run ${i + 1}/${opts.runs}: cold ${samples.at(-1)!.coldMs} ms, warm ${samples.at(-1)!.warmMs} ms`);
    } finally {
      await handle.close();
    }
  }
  return {
    runs: opts.runs,
    coldMs: median(samples.map((s) => s.coldMs)),
    warmMs: median(samples.map((s) => s.warmMs)),
    // The first parse also pays for compiling the parsers: the median is the steady cost.
    parseMs: round(median(parse), 0),
    parseLiveMs: round(median(parseLive), 0),
    samples,
    papers,
    warmChanged,
  };
}
