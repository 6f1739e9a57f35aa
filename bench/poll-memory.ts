/**
 * Peak memory of one `grpo-digest poll` over many large pages (issue 26 item 3): the compiled CLI runs
 * as its own process with the shipped flags (`node --max-semi-space-size=4 dist/cli.js poll ...`),
 * against a local fake of Hugging Face and the arXiv API on 127.0.0.1 that serves oversized pages
 * (1,000 HF items where 100 were asked for, 2,000 API entries where 200 were), and its peak RSS is
 * the kernel's (`/usr/bin/time -f %M`, the ru_maxrss of the finished child).
 *
 *   npm run bench -- --only poll-memory                       # this tree's dist/
 *   npx tsx bench/poll-memory.ts --cli /path/to/other/dist/cli.js   # another build (the baseline)
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { splitFeed, syntheticArxivFeed } from './feeds.ts';
import { startBenchServer, type BenchServer } from './pg.ts';

export interface PollMemoryRun {
  scenario: string;
  /** What the fake served. */
  served: string;
  peakRssMb: number;
  seconds: number;
  exitCode: number | null;
  /** Papers in the database afterwards. */
  papers: number;
}

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const words = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => `word${(seed * 7919 + i * 104729) % 9973}`).join(' ');

/** One HF page of `count` items of about 8 KB each (3.5 KB unless `large`); ids unique per (date index, page, item). */
export function hfPage(dateIndex: number, page: number, count: number, date: string, large: boolean): string {
  const items = Array.from({ length: count }, (_, i) => {
    const n = page * count + i;
    const id = `26${pad(dateIndex + 1, 2)}.${pad(n, 5)}`;
    return {
      paper: {
        id,
        title: `Junk paper ${id} ${words(8, n)}`,
        summary: words(large ? 500 : 250, n),
        authors: Array.from({ length: large ? 20 : 8 }, (_, a) => ({
          _id: `a${a}`,
          name: `Author ${a} of ${id}`,
          hidden: false,
        })),
        publishedAt: `${date}T00:00:00.000Z`,
        upvotes: n % 50,
        ai_summary: words(large ? 200 : 50, n + 1),
        ai_keywords: words(20, n + 2).split(' '),
      },
      publishedAt: `${date}T09:00:00.000Z`,
      title: `Junk paper ${id}`,
      summary: words(large ? 100 : 20, n + 3),
      numComments: 0,
    };
  });
  return JSON.stringify(items);
}

/** One arXiv API page of `count` entries of about 3 KB each. */
export function apiPage(page: number, count: number, total: number): string {
  const entries = Array.from({ length: count }, (_, i) => {
    const n = page * count + i;
    const id = `2610.${pad(n, 5)}`;
    return `<entry><id>http://arxiv.org/abs/${id}v1</id><title>Junk entry ${id} ${words(8, n)}</title>
<updated>2026-10-15T10:00:00Z</updated><published>2026-10-15T10:00:00Z</published>
<summary>${words(350, n)}</summary><category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
<arxiv:primary_category term="cs.LG"/>${Array.from({ length: 8 }, (_, a) => `<author><name>Author ${a}</name></author>`).join('')}</entry>`;
  });
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
<id>https://arxiv.org/api/bench</id><title>bench</title><updated>2026-11-28T00:00:00Z</updated>
<opensearch:itemsPerPage>${count}</opensearch:itemsPerPage><opensearch:totalResults>${total}</opensearch:totalResults>
<opensearch:startIndex>${page * count}</opensearch:startIndex>
${entries.join('\n')}
</feed>`;
}

interface Fake {
  base: string;
  close(): Promise<void>;
}

/** HF: `hfItems` per page for any date, page numbers below `hfPages`, then []; API: `apiEntries` per page. */
async function startFake(o: {
  hfItems: number;
  hfPages: number;
  hfLarge?: boolean;
  apiEntries: number;
  apiPages: number;
  /** RSS documents by category. */
  rss?: Record<string, string>;
}): Promise<Fake> {
  const dates = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/api/daily_papers') {
      const date = url.searchParams.get('date') ?? '';
      if (!dates.has(date)) dates.set(date, dates.size);
      const page = Number(url.searchParams.get('p'));
      const body = page < o.hfPages ? hfPage(dates.get(date)!, page, o.hfItems, date, o.hfLarge ?? false) : '[]';
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    const rss = url.pathname.startsWith('/rss/') ? o.rss?.[url.pathname.slice('/rss/'.length)] : undefined;
    if (rss) return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss);
    if (url.pathname === '/api/query') {
      const start = Number(url.searchParams.get('start') ?? 0);
      const size = Number(url.searchParams.get('max_results') ?? 200);
      const page = Math.round(start / size);
      const body = page < o.apiPages ? apiPage(page, o.apiEntries, 30_000) : apiPage(0, 0, 30_000);
      return void res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(body);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs the CLI once under /usr/bin/time; resolves with its peak RSS (MB), wall time and exit code. */
function runCli(cli: string, args: string[], env: Record<string, string>, nodeArgs: string[]) {
  return new Promise<{ peakRssMb: number; seconds: number; exitCode: number | null; stderr: string }>(
    (resolve, reject) => {
      const started = performance.now();
      const child = spawn('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, ...nodeArgs, cli, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', process.env.POLL_MEMORY_STDOUT ? 'pipe' : 'ignore', 'pipe'],
      });
      // POLL_MEMORY_STDOUT=<file>: keep the child's stdout (its --json report, or --trace-gc lines).
      if (process.env.POLL_MEMORY_STDOUT) child.stdout!.pipe(createWriteStream(process.env.POLL_MEMORY_STDOUT));
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? NaN);
        resolve({
          peakRssMb: Math.round(kb / 1024),
          seconds: Math.round((performance.now() - started) / 100) / 10,
          exitCode: code,
          stderr: stderr.slice(-2000),
        });
      });
    },
  );
}

interface Scenario {
  name: string;
  served: string;
  fake: Parameters<typeof startFake>[0];
  args: string[];
  /** SQL run on the fresh database before the poll (a feed state to catch up from). */
  setup?: string;
  env?: Record<string, string>;
}

const RSS_CATEGORIES = ['cs.LG', 'cs.CL', 'cs.AI', 'stat.ML'];
let rssDay: Record<string, string> | undefined;
/** The 20,000-item day of bench/answers.ts: four category documents of 5,000 items (about 10 MB each). */
function twentyThousandDay(): Record<string, string> {
  rssDay ??= Object.fromEntries(
    splitFeed(syntheticArxivFeed({ items: 20_000, seed: 1, date: day(0) }).xml, 4).map((xml, i) => [
      RSS_CATEGORIES[i]!,
      xml,
    ]),
  );
  return rssDay;
}

const HF_CATCH_UP = `insert into feed_state (feed, cursor, initialized_at, updated_at) values ('hf-daily', '${day(-6)}', now(), now())`;

const SCENARIOS: Scenario[] = [
  {
    name: 'hf-10-pages',
    served: 'HF, one day, 10 pages x 1,000 items of ~8 KB (8.5 MB a page)',
    fake: { hfItems: 1000, hfPages: 10, hfLarge: true, apiEntries: 0, apiPages: 0 },
    args: ['--source', 'hf-daily', '--date', day(-1)],
  },
  {
    name: 'hf-7-days',
    served: 'HF catch-up, 7 days x 10 pages x 1,000 items of ~8 KB (8.5 MB a page)',
    fake: { hfItems: 1000, hfPages: 10, hfLarge: true, apiEntries: 0, apiPages: 0 },
    args: ['--source', 'hf-daily'],
    setup: HF_CATCH_UP,
  },
  {
    name: 'hf-7-days-4mb',
    served: 'HF catch-up, 7 days x 10 pages x 1,000 items of ~3.7 KB (3.7 MB a page)',
    fake: { hfItems: 1000, hfPages: 10, apiEntries: 0, apiPages: 0 },
    args: ['--source', 'hf-daily'],
    setup: HF_CATCH_UP,
  },
  {
    name: 'api-10-pages',
    served: 'arXiv API, 10 pages x 2,000 entries of ~3.7 KB (7.2 MB a page)',
    fake: { hfItems: 0, hfPages: 0, apiEntries: 2000, apiPages: 10 },
    args: ['--source', 'arxiv-api', '--date', day(-1)],
  },
  {
    name: 'rss-20k-day',
    served: 'arXiv RSS, a 20,000-item day: 4 categories x 5,000 items (~10 MB each)',
    fake: { hfItems: 0, hfPages: 0, apiEntries: 0, apiPages: 0 },
    args: ['--source', 'arxiv-rss'],
    env: { ARXIV_CATEGORIES: RSS_CATEGORIES.join(',') },
  },
];

export async function benchPollMemory(
  bench: BenchServer,
  opts: { cli: string; nodeArgs: string[]; only?: string[]; log: (s: string) => void },
): Promise<PollMemoryRun[]> {
  const runs: PollMemoryRun[] = [];
  for (const s of SCENARIOS.filter((x) => !opts.only || opts.only.includes(x.name))) {
    const dbName = `poll_memory_${s.name.replace(/-/g, '_')}_${Date.now()}`;
    const handle = await bench.freshDb(dbName);
    await handle.close();
    const url = bench.server.url(dbName);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    if (s.setup) await sql.unsafe(s.setup);
    const fake = await startFake(s.name.startsWith('rss') ? { ...s.fake, rss: twentyThousandDay() } : s.fake);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'grpo-poll-mem-'));
    opts.log(`poll-memory: ${s.name} (${s.served})`);
    try {
      const r = await runCli(
        opts.cli,
        ['poll', ...s.args, '--no-follow-ups', '--json'],
        {
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          HF_API_BASE: `${fake.base}/api`,
          ARXIV_API_BASE: `${fake.base}/api/query`,
          ARXIV_RSS_BASE: `${fake.base}/rss`,
          ARXIV_REQUEST_INTERVAL_MS: '0',
          ...s.env,
        },
        opts.nodeArgs,
      );
      const [{ n }] = (await sql`select count(*)::int as n from papers`) as unknown as [{ n: number }];
      if (r.exitCode !== 0) opts.log(`  exit ${String(r.exitCode)}: ${r.stderr}`);
      runs.push({ scenario: s.name, served: s.served, ...r, papers: n, stderr: undefined } as PollMemoryRun);
      opts.log(`  peak ${r.peakRssMb} MB, ${r.seconds} s, ${n} papers stored, exit ${String(r.exitCode)}`);
    } finally {
      await sql.end();
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  return runs;
}

/** A table of the runs, for the report and docs/BENCHMARKS.md. */
export function pollMemoryTable(runs: PollMemoryRun[]): string {
  const rows = runs.map(
    (r) => `| ${r.scenario} | ${r.served} | ${r.peakRssMb} MB | ${r.seconds} s | ${r.papers} | ${String(r.exitCode)} |`,
  );
  return [
    '| scenario | served | peak RSS | time | papers stored | exit |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      cli: { type: 'string', default: path.resolve(fileURLToPath(new URL('..', import.meta.url)), 'dist/cli.js') },
      only: { type: 'string' },
      'node-args': { type: 'string', default: '--max-semi-space-size=4' },
    },
  });
  const bench = await startBenchServer();
  try {
    const runs = await benchPollMemory(bench, {
      cli: values.cli,
      nodeArgs: values['node-args'].split(' ').filter(Boolean),
      only: values.only?.split(','),
      log: (s) => process.stderr.write(`${s}\n`),
    });
    process.stdout.write(`${pollMemoryTable(runs)}\n`);
  } finally {
    await bench.stop();
  }
}
