/**
 * Start-up time of `grpo-digest console` on a warm, already-seeded data dir: from spawning the
 * compiled CLI (`node dist/cli.js`, what `npm start` and bin/grpo-digest run; the caller builds it)
 * until the answer to `/help` reaches stdout, and until the process has exited (Postgres stopped);
 * the baseline is the same through tsx (`npm run dev`), measured in the same run.
 * bench/startup-probe.ts splits the same path into steps; two reference points put them in scale.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../db/open.ts';
import { importSeeds } from '../seeds/import.ts';
import { selfTimeByOrigin } from './cpuprof.ts';
import { tempParent } from './pg.ts';
import { median, round } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

export interface StartupResult {
  runs: number;
  firstAnswerMs: number;
  totalMs: number;
  samples: { firstAnswerMs: number; totalMs: number }[];
  /** The baseline: `tsx src/cli.ts console`, interleaved with the compiled runs. */
  tsx: { firstAnswerMs: number; totalMs: number; samples: { firstAnswerMs: number; totalMs: number }[] };
  /** Median duration of each step, in order (bench/startup-probe.ts). */
  steps: Record<string, number>;
  /** For scale: an empty node process; an empty tsx script; importing the CLI bundled with esbuild. */
  reference: Record<string, number>;
  /** CPU self time of one probe run (node --cpu-prof, main thread) by origin, ms, largest first. */
  cpuByOrigin: [string, number][];
}

interface Spawned {
  firstOutputMs: number;
  totalMs: number;
  stdout: string;
}

/** Runs a command with `input` on stdin; times its first stdout bytes and its exit. */
function run(cmd: string, args: string[], env: Record<string, string>, input = ''): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let first = NaN;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (Number.isNaN(first)) first = performance.now() - t0;
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
      else resolve({ firstOutputMs: first, totalMs: performance.now() - t0, stdout });
    });
    child.stdin.end(input);
  });
}

export async function benchStartup(opts: { runs: number; log: (s: string) => void }): Promise<StartupResult> {
  const parent = await tempParent('grpo-startup-');
  const dataDir = path.join(parent, 'data');
  try {
    // A warm data dir: initialised, migrated and seeded, as after a first start.
    opts.log('startup: preparing a seeded data dir');
    const db = await openDatabase({ dataDir });
    await importSeeds({ db: db.db, now: () => new Date() });
    await db.close();
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const compiledRun = () => run(process.execPath, ['dist/cli.js', 'console'], env, '/help\n');
    const tsxRun = () => run(TSX, ['src/cli.ts', 'console'], env, '/help\n');
    await compiledRun(); // warm-up: OS file cache and tsx's transform cache
    await tsxRun();
    const samples: StartupResult['samples'] = [];
    const tsxSamples: StartupResult['samples'] = [];
    const sample = async (start: () => Promise<Spawned>, into: StartupResult['samples']) => {
      const r = await start();
      if (!r.stdout.includes('grpo-digest')) throw new Error(`unexpected /help answer: ${r.stdout.slice(0, 200)}`);
      into.push({ firstAnswerMs: round(r.firstOutputMs, 0), totalMs: round(r.totalMs, 0) });
    };
    for (let i = 0; i < opts.runs; i++) {
      await sample(compiledRun, samples);
      await sample(tsxRun, tsxSamples);
      opts.log(
        `startup: run ${i + 1}/${opts.runs}: first answer ${samples.at(-1)!.firstAnswerMs} ms compiled, ${tsxSamples.at(-1)!.firstAnswerMs} ms through tsx`,
      );
    }
    const probes: Record<string, number>[] = [];
    for (let i = 0; i < 3; i++)
      probes.push(JSON.parse((await run(TSX, ['bench/startup-probe.ts'], env)).stdout) as Record<string, number>);
    // One more probe under the V8 profiler (one process: node --import tsx) to see what the time is spent on.
    const profDir = path.join(parent, 'prof');
    await run(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', 'bench/startup-probe.ts'],
      env,
    );
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (1 is tsx's loader).
    const main = (await readdir(profDir)).find((f) => /\.0\.\d+\.cpuprofile$/.test(f));
    return {
      runs: opts.runs,
      firstAnswerMs: median(samples.map((s) => s.firstAnswerMs)),
      totalMs: median(samples.map((s) => s.totalMs)),
      samples,
      tsx: {
        firstAnswerMs: median(tsxSamples.map((s) => s.firstAnswerMs)),
        totalMs: median(tsxSamples.map((s) => s.totalMs)),
        samples: tsxSamples,
      },
      steps: stepDurations(probes),
      reference: await reference(),
      cpuByOrigin: main ? (await selfTimeByOrigin(path.join(profDir, main), ROOT.replace(/\/$/, ''))).slice(0, 8) : [],
    };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/** Probe marks are times since process start; a step's duration is the gap to the previous mark. */
function stepDurations(probes: Record<string, number>[]): Record<string, number> {
  const names = Object.keys(probes[0] ?? {});
  return Object.fromEntries(
    names.map((name, i) => {
      const prev = names[i - 1];
      return [name, round(median(probes.map((p) => p[name]! - (prev ? p[prev]! : 0))), 0)];
    }),
  );
}

async function reference(): Promise<Record<string, number>> {
  /** Median of 3 runs after a warm-up: the process's wall time, or the number it printed. */
  const time = async (cmd: string, args: string[], printed = false) => {
    const runs: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await run(cmd, args, {});
      runs.push(printed ? Number(r.stdout) : r.totalMs);
    }
    return round(median(runs.slice(1)), 0);
  };
  // Importing the CLI's own code as one esbuild bundle (packages still from node_modules): what a
  // build step would save over tsx transforming and resolving each .ts file at start.
  const dir = path.join(ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  const bundle = path.join(dir, '.startup-bundle.mjs');
  await run(
    path.join(ROOT, 'node_modules/.bin/esbuild'),
    [
      'src/cli.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      `--outfile=${bundle}`,
      '--log-level=warning',
    ],
    {},
  );
  const importMs = (loader: string[], file: string) =>
    time(
      process.execPath,
      [
        ...loader,
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t)`,
      ],
      true,
    );
  try {
    return {
      nodeEmptyMs: await time(process.execPath, ['-e', '']),
      tsxEmptyMs: await time(TSX, ['-e', '']),
      importCliWithTsxMs: await importMs(['--import', 'tsx'], path.join(ROOT, 'src/cli.ts')),
      importCliBundledMs: await importMs([], bundle),
    };
  } finally {
    await rm(bundle, { force: true });
  }
}
