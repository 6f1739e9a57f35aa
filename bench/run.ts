/**
 * `npm run bench`: search latency on synthetic corpora, seed import time, start-up time, ingest
 * throughput of a synthetic 20k-item arXiv RSS feed, the mojibake repair figures (bench/repair.ts, another engineer's, when present),
 * digests (LLM calls, tokens and cost for 30 papers to 100 channels; composer time for 1,000 channels) and the pictures' render
 * time (family tree, /trends, the weekly digest header), search quality on the chat questions (`quality`) and the
 * family filter on the labelled arXiv days (`classify`), and what the bot says about a paper's families
 * on the family answer key (`families`: tags, recipes on the cards, the commands' counts). Prints tables (or
 * JSON with --json) on stdout, progress on stderr, and writes bench/results/latest.json.
 *
 *   npm run bench -- --only search --sizes 10000,100000 --baseline
 *   npm run bench -- --only ingest --ingest-items 20000 --ingest-baseline-items 5000
 *   npm run bench -- --only digest
 *   npm run bench -- --only render --reps 20
 *   npm run bench -- --only quality,classify
 *   npm run bench -- --only families
 *   npm run bench -- --only poll-memory   (peak RSS of one `poll` over many large fake pages)
 *
 * Benchmarks, not tests: nothing here fails on a slow figure; the report compares with the goals.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { startBenchServer } from './pg.ts';
import { benchDigestCost, type DigestCostResult } from './digest-cost.ts';
import { benchDigest, type DigestResult } from './digest.ts';
import { benchIngest, type IngestResult } from './ingest.ts';
import { fullReport } from './report.ts';
import { benchSearch, type SizeResult } from './search.ts';
import { benchRender, type RenderResult } from './render.ts';
import { benchSeed, type SeedResult } from './seed.ts';
import { benchAnswers, type AnswersResult } from './answers.ts';
import { benchFanout, type FanoutResult } from './fanout.ts';
import { buildCli } from './bot-process.ts';
import { benchStartup, type StartupResult } from './startup.ts';
import { benchClassifyDays, type ClassifyDaysResult } from './classify-days.ts';
import { benchSearchQuality, type SearchQualityResult } from './search-quality.ts';
import { benchFamilies, type FamiliesResult } from './families.ts';
import { benchPollMemory, type PollMemoryRun } from './poll-memory.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTIONS = [
  'search',
  'quality',
  'classify',
  'families',
  'seed',
  'startup',
  'ingest',
  'repair',
  'digest',
  'render',
  'answers',
  'fanout',
  'poll-memory',
] as const;
type Section = (typeof SECTIONS)[number];

export interface RepairResult {
  available: boolean;
  json?: unknown;
  text?: string;
}

export interface Results {
  date: string;
  machine: {
    cpu: string;
    cores: number;
    memoryGb: number;
    node: string;
    postgres: string;
    loadStart: number[];
    loadEnd: number[];
  };
  options: Record<string, unknown>;
  search?: SizeResult[];
  seed?: SeedResult;
  startup?: StartupResult;
  ingest?: IngestResult;
  repair?: RepairResult;
  digest?: { cost: DigestCostResult; composer: DigestResult };
  render?: RenderResult;
  answers?: AnswersResult;
  fanout?: FanoutResult;
  quality?: SearchQualityResult;
  classify?: ClassifyDaysResult;
  families?: FamiliesResult;
  pollMemory?: PollMemoryRun[];
}

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    sizes: { type: 'string', default: '10000,100000' },
    json: { type: 'boolean', default: false },
    baseline: { type: 'boolean', default: false },
    reps: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    'ingest-items': { type: 'string', default: '20000' },
    'ingest-baseline-items': { type: 'string', default: '5000' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    'profile-bot': { type: 'boolean', default: false },
    // What `npm start` and the systemd unit pass: the figures are those of the bot as shipped.
    'bot-node-args': { type: 'string', default: '--max-semi-space-size=4' },
    channels: { type: 'string', default: '1000' },
    'latency-ms': { type: 'string', default: '50' },
  },
});

const only = (args.only?.split(',') ?? SECTIONS) as Section[];
for (const s of only)
  if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section "${s}" (one of ${SECTIONS.join(', ')})`);
const sizes = args.sizes.split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes: whole numbers, comma-separated');
const ingestItems = Number(args['ingest-items']);
const ingestBaselineItems = Math.min(ingestItems, Number(args['ingest-baseline-items']));
if (![ingestItems, ingestBaselineItems].every((n) => Number.isInteger(n) && n >= 1))
  throw new Error('--ingest-items, --ingest-baseline-items: whole numbers');
const log = (s: string) => process.stderr.write(`${s}\n`);
const loadavg = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

const results: Results = {
  date: new Date().toISOString(),
  machine: {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: '',
    loadStart: loadavg(),
    loadEnd: [],
  },
  options: {
    only,
    sizes,
    reps: Number(args.reps),
    runs: Number(args.runs),
    seed: Number(args.seed),
    baseline: args.baseline,
    ...(only.includes('ingest') && { ingestItems, ingestBaselineItems }),
    ...(only.includes('answers') && { rate: Number(args.rate), seconds: Number(args.seconds), ingestItems }),
    ...(only.includes('fanout') && { channels: Number(args.channels), latencyMs: Number(args['latency-ms']) }),
  },
};

// The sections that run the CLI or the bot run what `npm start` runs: dist/, built from this tree.
if (only.includes('startup') || only.includes('answers') || only.includes('poll-memory')) buildCli();

// One embedded Postgres (app defaults, temp dir) serves the search, seed, ingest, digest and answers sections.
if (
  ['search', 'quality', 'families', 'seed', 'ingest', 'digest', 'answers', 'fanout', 'poll-memory'].some((x) =>
    only.includes(x as Section),
  )
) {
  const bench = await startBenchServer();
  try {
    const admin = postgres(bench.server.url('postgres'), { max: 1 });
    results.machine.postgres = ((await admin`select version()`)[0]?.version as string).split(' on ')[0]!;
    await admin.end();
    if (only.includes('search')) {
      results.search = await benchSearch(bench, {
        sizes,
        seed: Number(args.seed),
        reps: Number(args.reps),
        baseline: args.baseline,
      });
    }
    if (only.includes('quality')) {
      log('quality: search on the chat questions, dev and test');
      results.quality = await benchSearchQuality(bench);
    }
    if (only.includes('families')) results.families = await benchFamilies(bench, log);
    if (only.includes('seed')) results.seed = await benchSeed(bench, { runs: 3, log });
    if (only.includes('ingest')) {
      results.ingest = await benchIngest(bench, {
        items: ingestItems,
        baselineItems: ingestBaselineItems,
        runs: 3,
        seed: Number(args.seed),
        log,
      });
    }
    if (only.includes('digest')) {
      const cost = await benchDigestCost(bench, { seed: Number(args.seed), log });
      log('digest: composer timing, 1,000 channels');
      results.digest = {
        cost,
        composer: benchDigest({ channels: 1000, papers: 300, runs: Number(args.reps), seed: Number(args.seed) }),
      };
    }
    if (only.includes('answers')) {
      const workDir = path.join(ROOT, 'bench/results');
      await mkdir(workDir, { recursive: true });
      const profileDir = path.join(workDir, 'bot-profile');
      if (args['profile-bot']) await rm(profileDir, { recursive: true, force: true });
      results.answers = await benchAnswers(bench, {
        perSecond: Number(args.rate),
        seconds: Number(args.seconds),
        ingestItems,
        seed: Number(args.seed),
        log,
        workDir,
        nodeArgs: args['bot-node-args'].split(' ').filter(Boolean),
        ...(args['profile-bot'] && { profileDir }),
      });
    }
    if (only.includes('fanout')) {
      results.fanout = await benchFanout(bench, {
        channels: Number(args.channels),
        papers: 12,
        latencyMs: Number(args['latency-ms']),
        log,
      });
    }
    if (only.includes('poll-memory')) {
      results.pollMemory = await benchPollMemory(bench, {
        cli: path.join(ROOT, 'dist/cli.js'),
        nodeArgs: args['bot-node-args'].split(' ').filter(Boolean),
        log,
      });
    }
  } finally {
    await bench.stop();
  }
}
if (only.includes('classify')) {
  log('classify: the family filter on the labelled arXiv days');
  results.classify = benchClassifyDays();
}
if (only.includes('startup')) results.startup = await benchStartup({ runs: Number(args.runs), log });
if (only.includes('render'))
  results.render = await benchRender({ runs: Number(args.reps), seed: Number(args.seed), log });
if (only.includes('repair'))
  results.repair = await benchRepair().catch((err: Error) => ({ available: true, text: `failed: ${err.message}` }));
results.machine.loadEnd = loadavg();

await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
await writeFile(path.join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(args.json ? `${JSON.stringify(results, null, 2)}\n` : `${fullReport(results)}\n`);
log('figures written to bench/results/latest.json');

/**
 * bench/repair.ts belongs to another engineer: it is run as its own process (so its module may do
 * whatever it likes at the top level) with --json; its stdout is kept as JSON if it parses.
 */
async function benchRepair(): Promise<RepairResult> {
  const file = path.join(ROOT, 'bench/repair.ts');
  if (!existsSync(file)) return { available: false };
  log('repair: running bench/repair.ts');
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [file, '--json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench/repair.ts exited with ${code}`))));
  });
  try {
    return { available: true, json: JSON.parse(stdout) };
  } catch {
    return { available: true, text: stdout.trim() };
  }
}
