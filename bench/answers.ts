/**
 * Answers under load, and the bot's memory: the compiled bot (`node dist/cli.js start`, its own
 * process, the real discord.js client) against the fake Discord, on a database seeded with the seed
 * corpus. In order:
 *   1. resident memory after start; the first search on the seed corpus (it builds the index);
 *   2. a 20,000-item arXiv RSS day (four category feeds) polled by the bot's own scheduler (POLL_CRON every 10 s, a local
 *      feed server), then its memory, and the first search after it (the index takes the new papers);
 *   3. a warm-up, then the floor: 100 `/help` per second for 30 s from a member with Manage Server
 *      (a command that reads nothing: the path alone, gateway -> client -> router -> reply);
 *   4. the mix at the same rate from 1,000 users: search, show, latest, queue vote buttons, queue
 *      show, /ask without a key, autocomplete; then the memory again.
 * Latencies are the fake's clock in this process: INTERACTION_CREATE written to the socket -> the
 * callback request received (first response), and -> the last request answering it.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { papers } from '../db/schema.ts';
import { importSeeds } from '../seeds/import.ts';
import { CUSTOM_IDS } from '../src/core/custom-id.ts';
import { APP_ID, PERMISSIONS, startFakeDiscord, type FakeDiscord } from '../test/fakes/discord.ts';
import { ROOT, cpuSeconds, freePort, postgresCpuSeconds, startBotProcess, startFeedServer } from './bot-process.ts';
import { rng } from './corpus.ts';
import { selfTimeByFunction, selfTimeByOrigin } from './cpuprof.ts';
import { splitFeed, syntheticArxivFeed } from './feeds.ts';
import type { BenchServer } from './pg.ts';
import { loadQuestions } from './search-quality.ts';
import { round } from './stats.ts';
import { runStats, sendAtRate, settle, type RunStats, type Sent } from './traffic.ts';

/** The day's listing is served as four category feeds (each under the bot's 16 MB response cap). */
const CATEGORIES = ['cs.LG', 'cs.CL', 'cs.AI', 'cs.CV'];

export interface AnswersOptions {
  perSecond: number;
  seconds: number;
  ingestItems: number;
  seed: number;
  log: (s: string) => void;
  /** Profile the bot (node --cpu-prof into this folder) and report where its CPU went during the mix. */
  profileDir?: string;
  /** Node flags for the bot, to compare settings (e.g. --optimize-for-size); none by default, as `npm start` runs it. */
  nodeArgs: string[];
  workDir: string;
}

export interface AnswersResult {
  nodeArgs: string[];
  perSecond: number;
  seconds: number;
  corpus: { seedPapers: number; afterIngest: number; ingestItems: number; ingestSeconds: number };
  /** Resident memory of the bot (/proc) and its V8 heap (its /metrics), MB, at each point. */
  memory: Record<'afterStart' | 'afterIngest' | 'afterLoad' | 'afterIdle', Memory>;
  /** The search index the bot builds at start ('search index built' in its log), and the first searches users made: sent -> first response and -> complete, ms. */
  searchIndex: { papers: number; buildMs: number } | null;
  firstSearch: {
    seedCorpus: { firstMs: number; completeMs: number };
    afterIngest: { firstMs: number; completeMs: number };
  };
  /** With --profile-bot: the bot's CPU self time during the mix, by origin and by function, ms. */
  profile?: { byOrigin: [string, number][]; byFunction: [string, number][] };
  /** Each kind alone, 20/s for 5 s: latency without a crowd, and CPU ms per interaction in the bot and in Postgres. */
  kinds: Record<string, RunStats & { cpuMs: CpuPerInteraction }>;
  floor: RunStats & { cpuMs: CpuPerInteraction };
  mix: RunStats & { cpuMs: CpuPerInteraction };
  mixWeights: Record<string, number>;
  botExit: number | null;
}

const MB = 2 ** 20;

/** The bot's memory: resident from /proc, the heap from its own metrics endpoint (prom-client's process metrics). */
async function memoryOf(bot: { rssMb(): Promise<number> }, metricsPort: number): Promise<Memory> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const value = (name: string) => {
    const v = Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    return Number.isFinite(v) ? Math.round(v / MB) : null;
  };
  return {
    rss: await bot.rssMb(),
    heapUsed: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
  };
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export interface Memory {
  rss: number;
  heapUsed: number | null;
  heapTotal: number | null;
  external: number | null;
}

interface CpuPerInteraction {
  bot: number;
  postgres: number;
}

const loadavg = (): [number, number] => [round(os.loadavg()[0]!, 2), round(os.loadavg()[1]!, 2)];

/** Shares of the mix, out of 100. */
export const MIX = { search: 20, show: 15, latest: 8, vote: 15, queue: 10, ask: 7, autocomplete: 25 } as const;

/** One interaction of each kind, from one of 1,000 members of the server; `help` (the floor) from one who may manage it. */
function interactions(fake: FakeDiscord, opts: { seed: number; arxivIds: string[]; paperIds: number[] }) {
  const r = rng(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const questions = loadQuestions('dev').map((q) => q.question);
  const prefixes = ['grp', 'gsp', 'group rel', 'dapo', '2507.1', 'entropy', 'reward mod', '强化', 'policy opt', 'clip'];
  const votable = opts.paperIds.slice(0, 40);
  const send = (kind: string): Sent => {
    const user = { userId: String(700000000000000000n + BigInt(Math.floor(r() * 1000))), username: 'reader' };
    const sent = (() => {
      switch (kind) {
        case 'help':
          return fake.sendChatInput({ name: 'help', permissions: PERMISSIONS.manager });
        case 'search':
          return fake.sendChatInput({
            ...user,
            name: 'paper',
            subcommand: 'search',
            options: { query: pick(questions) },
          });
        case 'show':
          return fake.sendChatInput({
            ...user,
            name: 'paper',
            subcommand: 'show',
            options: { id: pick(opts.arxivIds) },
          });
        case 'latest':
          return fake.sendChatInput({ ...user, name: 'paper', subcommand: 'latest' });
        case 'vote':
          return fake.pressButton(CUSTOM_IDS.vote.encode({ paper: pick(votable) }), user);
        case 'queue':
          return fake.sendChatInput({ ...user, name: 'queue', subcommand: 'show' });
        case 'ask':
          return fake.sendChatInput({ ...user, name: 'ask', options: { question: pick(questions) } });
        case 'autocomplete':
          return fake.sendAutocomplete({
            ...user,
            name: 'paper',
            subcommand: 'show',
            options: { id: pick(prefixes) },
            focused: 'id',
          });
        default:
          throw new Error(`answers bench: unknown kind ${kind}`);
      }
    })();
    return { ...sent, kind };
  };
  const weighted = Object.entries(MIX).flatMap(([k, w]) => Array<string>(w).fill(k));
  return { send, mix: () => send(pick(weighted)) };
}

async function oneSearch(fake: FakeDiscord, query: string): Promise<{ firstMs: number; completeMs: number }> {
  const i = fake.sendChatInput({ name: 'paper', subcommand: 'search', options: { query } });
  const first = await fake.waitForResponse(i, () => true);
  const last = await fake.waitForResponse(i, (r) =>
    r.path.endsWith('/callback') ? r.body?.type === 4 : r.method === 'PATCH',
  );
  return { firstMs: round(first.at - i.sentAt), completeMs: round(last.at - i.sentAt) };
}

async function profileOf(dir: string, window: [number, number]): Promise<AnswersResult['profile']> {
  const file = (await readdir(dir))
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) return undefined;
  const root = ROOT.replace(/\/$/, '');
  return {
    byOrigin: (await selfTimeByOrigin(path.join(dir, file), root, window)).slice(0, 10),
    byFunction: (await selfTimeByFunction(path.join(dir, file), root, window)).slice(0, 25),
  };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`answers bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function benchAnswers(bench: BenchServer, o: AnswersOptions): Promise<AnswersResult> {
  const handle = await bench.freshDb('answers');
  const fake = await startFakeDiscord();
  const feeds = await startFeedServer();
  try {
    o.log('answers: importing the seed corpus');
    await importSeeds({ db: handle.db, now: () => new Date() });
    const count = async () => Number((await handle.db.select({ n: sql<number>`count(*)` }).from(papers))[0]?.n ?? 0);
    const seedPapers = await count();
    const rows = await handle.db
      .select({ id: papers.id, arxivId: papers.arxivId })
      .from(papers)
      .where(sql`${papers.arxivId} is not null`)
      .orderBy(papers.id);
    const metricsPort = await freePort();

    o.log('answers: starting the compiled bot');
    const bot = startBotProcess(
      {
        DATABASE_URL: bench.server.url('answers'),
        DISCORD_TOKEN: 'bench-token',
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_API_BASE: fake.api,
        ARXIV_RSS_BASE: `${feeds.base}/rss`,
        ARXIV_API_BASE: `${feeds.base}/api`,
        HF_API_BASE: `${feeds.base}/hf`,
        ARXIV_CATEGORIES: CATEGORIES.join(','),
        ARXIV_REQUEST_INTERVAL_MS: '0',
        POLL_CRON: '*/10 * * * * *',
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'info',
      },
      {
        logFile: path.join(o.workDir, 'bot.log'),
        nodeArgs: [...o.nodeArgs, ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : [])],
      },
    );
    let result: Omit<AnswersResult, 'botExit'>;
    const mixWindow: [number, number] = [0, 0];
    try {
      await fake.waitForRequest((r) => r.method === 'PUT' && r.path === `/applications/${APP_ID}/commands`, 60_000);
      await waitFor(
        async () => /"msg":"search index built"/.test(readFileSync(path.join(o.workDir, 'bot.log'), 'utf8')),
        'the search index',
        60_000,
      );
      await new Promise((r) => setTimeout(r, 1000));
      const afterStart = await memoryOf(bot, metricsPort);
      const built = /"papers":(\d+),"ms":(\d+),"msg":"search index built"/.exec(
        readFileSync(path.join(o.workDir, 'bot.log'), 'utf8'),
      );
      const searchIndex = built ? { papers: Number(built[1]), buildMs: Number(built[2]) } : null;
      const seedSearch = await oneSearch(fake, 'group relative policy optimization');
      o.log(
        `answers: after start ${afterStart.rss} MB; index built in ${searchIndex?.buildMs} ms; first search on the seed corpus ${seedSearch.completeMs} ms`,
      );

      o.log(`answers: the bot polls a ${o.ingestItems.toLocaleString('en')}-item feed`);
      const feed = syntheticArxivFeed({ items: o.ingestItems, seed: o.seed });
      const t0 = performance.now();
      const parts = splitFeed(feed.xml, CATEGORIES.length);
      feeds.arm(Object.fromEntries(CATEGORIES.map((c, k) => [c, parts[k]!])));
      await waitFor(
        async () => feeds.served() > 0 && (await count()) >= seedPapers + o.ingestItems * 0.95,
        'the ingest',
        600_000,
      );
      await waitFor(
        async () =>
          (await handle.db.execute(sql`select 1 from job_runs where job = 'poll-feeds' and status = 'running'`))
            .length === 0,
        'the poll to finish',
        600_000,
      );
      const ingestSeconds = round((performance.now() - t0) / 1000);
      const afterIngestPapers = await count();
      await new Promise((r) => setTimeout(r, 2000));
      const afterIngest = await memoryOf(bot, metricsPort);
      const ingestSearch = await oneSearch(fake, 'group relative policy optimization');
      o.log(
        `answers: ingest done in ${ingestSeconds} s (${afterIngestPapers} papers); ${afterIngest.rss} MB; first search after it ${ingestSearch.completeMs} ms`,
      );

      const gen = interactions(fake, {
        seed: o.seed,
        arxivIds: rows.map((x) => x.arxivId!),
        paperIds: rows.map((x) => x.id),
      });
      o.log('answers: warm-up (10 s of the mix at half rate)');
      const warm = await sendAtRate(o.perSecond / 2, 10, gen.mix);
      await settle(fake, warm.sent);

      /** Sends at a rate, waits for the answers, and adds the CPU the bot and Postgres spent per interaction. */
      const run = async (
        label: string,
        next: () => Sent,
        perSecond: number,
        seconds: number,
      ): Promise<RunStats & { cpuMs: { bot: number; postgres: number } }> => {
        const cpu0 = [await cpuSeconds(bot.pid), await postgresCpuSeconds(bench.dataDir)];
        const { sent, elapsedMs } = await sendAtRate(perSecond, seconds, next);
        await settle(fake, sent);
        const cpu1 = [await cpuSeconds(bot.pid), await postgresCpuSeconds(bench.dataDir)];
        const stats = runStats(fake, sent, { perSecond, seconds, elapsedMs, loadAverage: loadavg() });
        const per = (i: number) => round(((cpu1[i]! - cpu0[i]!) * 1000) / sent.length, 2);
        o.log(
          `answers: ${label}: ${perSecond}/s for ${seconds} s: first response p50 ${stats.first.p50} p95 ${stats.first.p95} p99 ${stats.first.p99} ms, ` +
            `missed ${stats.missed}; CPU per interaction ${per(0)} ms bot, ${per(1)} ms Postgres (load ${stats.loadAverage[0]})`,
        );
        return { ...stats, cpuMs: { bot: per(0), postgres: per(1) } };
      };
      // Each kind alone at a gentle rate: its cost, and its latency without a crowd.
      const kinds: Record<string, Awaited<ReturnType<typeof run>>> = {};
      for (const kind of ['help', ...Object.keys(MIX)])
        kinds[kind] = await run(`${kind} alone`, () => gen.send(kind), 20, 5);
      const floor = await run('floor (/help)', () => gen.send('help'), o.perSecond, o.seconds);
      mixWindow[0] = monotonicUs();
      const mix = await run('mix', gen.mix, o.perSecond, o.seconds);
      mixWindow[1] = monotonicUs();
      const afterLoad = await memoryOf(bot, metricsPort);
      o.log('answers: 15 s idle');
      await new Promise((r) => setTimeout(r, 15_000));
      const afterIdle = await memoryOf(bot, metricsPort);
      o.log(`answers: memory after the load ${afterLoad.rss} MB, after 15 s idle ${afterIdle.rss} MB`);
      result = {
        nodeArgs: o.nodeArgs,
        perSecond: o.perSecond,
        seconds: o.seconds,
        corpus: { seedPapers, afterIngest: afterIngestPapers, ingestItems: o.ingestItems, ingestSeconds },
        memory: { afterStart, afterIngest, afterLoad, afterIdle },
        searchIndex,
        firstSearch: { seedCorpus: seedSearch, afterIngest: ingestSearch },
        kinds,
        floor,
        mix,
        mixWeights: { ...MIX },
      };
    } finally {
      const code = await bot.stop();
      if (code !== 0)
        o.log(
          `answers: the bot exited with ${code}; the end of its log:\n${readFileSync(path.join(o.workDir, 'bot.log'), 'utf8').slice(-3000)}`,
        );
    }
    const profile = o.profileDir ? await profileOf(o.profileDir, mixWindow) : undefined;
    return { ...result, ...(profile && { profile }), botExit: bot.child.exitCode };
  } finally {
    await feeds.close();
    await fake.close();
    await handle.close();
  }
}
