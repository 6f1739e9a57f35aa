/**
 * Digest composition speed: `composeDigest` for 1,000 channels over one shared pool of synthetic
 * candidates with long text (titles with LaTeX and markdown, 2,000-character TL;DRs, long author
 * lists, GRPO deltas), channels varying in language, topics, cadence, cap, minimum score and last
 * digest. Pure CPU: no database (loading is a separate query per channel). Median of `runs`.
 *
 *   npx tsx bench/digest.ts            # one line
 *   npx tsx bench/digest.ts --json
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { composeDigest } from '../src/core/digest/compose.ts';
import type { DigestChannel, DigestInput, DigestPaper, DigestSummary, FeedHealth } from '../src/core/digest/types.ts';
import { TOPIC_SLUGS } from '../src/core/papers/topics.ts';
import { median, round } from './stats.ts';

export interface DigestBenchOptions {
  channels: number;
  /** Candidate papers in the shared pool. */
  papers: number;
  runs: number;
  seed: number;
}

export interface DigestResult {
  channels: number;
  papers: number;
  runs: number;
  /** Median wall time to compose every channel's digest once. */
  totalMs: number;
  perChannelUs: number;
  samplesMs: number[];
  messages: number;
  papersPosted: number;
  quietChannels: number;
}

/** mulberry32: a small seeded PRNG, so every run composes the same digests. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'group relative policy optimization clipping advantage normalisation token level sequence reward verifiable entropy rollout critic baseline'.split(
    ' ',
  );

export function syntheticDigestInputs(o: Pick<DigestBenchOptions, 'channels' | 'papers' | 'seed'>): DigestInput[] {
  const r = rng(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const now = new Date('2026-11-21T09:00:00Z');
  const pool: DigestPaper[] = Array.from({ length: o.papers }, (_, i) => ({
    id: i + 1,
    arxivId: `2611.${String(10000 + i)}`,
    arxivVersion: 1,
    title: `${words(6)} *with* $\\epsilon_{low}$ @everyone ${words(20)}`,
    titleZh: `组相对策略优化${'长'.repeat(60)}`,
    authors: Array.from({ length: 30 }, (_, k) => `Author ${k} Name`),
    authorCount: 30,
    organization: r() < 0.3 ? 'Qwen Team' : null,
    grpoFamily: r() < 0.9,
    familyScore: r(),
    families: ['GRPO', pick(['DAPO', 'GSPO', 'Dr. GRPO'])],
    topics: Array.from(new Set([pick(TOPIC_SLUGS), pick(TOPIC_SLUGS)])),
    hfUpvotes: r() < 0.5 ? Math.floor(r() * 200) : null,
    githubStars: r() < 0.3 ? Math.floor(r() * 5000) : null,
    githubUrl: r() < 0.3 ? `https://github.com/org/${words(1)}-${i}` : null,
    votes: Math.floor(r() * 4),
    newsAt: new Date(now.getTime() - r() * 8 * 86_400_000),
  }));
  const summaryFor = (lang: 'en' | 'zh') =>
    new Map(
      pool.map((p): [number, DigestSummary] => [
        p.id,
        {
          kind: pick(['llm', 'note', 'fallback'] as const),
          tldr:
            lang === 'zh'
              ? '本文提出一种新的组相对策略优化方法，通过解耦裁剪上下界提升稳定性。'.repeat(40)
              : `${words(300)} <@123>`,
          grpoDelta: {
            clipping: `changed: decoupled ε_low/ε_high ${words(10)}`,
            kl_term: 'removed',
            advantage_normalization: 'unchanged',
            loss_aggregation: words(8),
          },
        },
      ]),
    );
  const summaries = { en: summaryFor('en'), zh: summaryFor('zh') };
  const feeds: FeedHealth[] = ['cs.LG', 'cs.CL', 'cs.AI', 'cs.CV'].map((c, k) => ({
    feed: `arxiv-rss:${c}`,
    health: k === 1 ? 'stale' : 'ok',
    healthDetail: k === 1 ? 'same 40 papers as on 2026-11-19' : null,
    lastNewCount: 400,
    lastFamilyCount: 7,
    lastSuccessAt: now,
  }));
  return Array.from({ length: o.channels }, (_, i) => {
    const language = r() < 0.3 ? 'zh' : 'en';
    const channel: DigestChannel = {
      channelId: String(1000 + i),
      language,
      cadence: r() < 0.2 ? 'weekly' : 'daily',
      topics: r() < 0.4 ? [] : Array.from(new Set([pick(TOPIC_SLUGS), pick(TOPIC_SLUGS), pick(TOPIC_SLUGS)])),
      maxPapers: 5 + Math.floor(r() * 21),
      minScore: round(r() * 0.6, 2),
      quietDay: r() < 0.5 ? 'notice' : 'nothing',
      pingRoleId: r() < 0.2 ? '4242' : null,
      threadPerPaper: r() < 0.1,
    };
    const since = new Date(now.getTime() - (channel.cadence === 'weekly' ? 7 : 1 + r()) * 86_400_000);
    return { channel, date: '2026-11-21', now, since, papers: pool, summaries: summaries[language], feeds };
  });
}

export function benchDigest(o: DigestBenchOptions): DigestResult {
  const inputs = syntheticDigestInputs(o);
  const samples: number[] = [];
  let messages = 0;
  let papersPosted = 0;
  let quietChannels = 0;
  for (let run = 0; run <= o.runs; run++) {
    const t0 = performance.now();
    const out = inputs.map(composeDigest);
    const ms = performance.now() - t0;
    if (run === 0) {
      // The first run warms the JIT and is not counted; its output gives the counts.
      messages = out.reduce((n, m) => n + m.length, 0);
      papersPosted = out.reduce((n, m) => n + m.reduce((k, x) => k + x.paperIds.length, 0), 0);
      quietChannels = out.filter((m) => m.every((x) => x.paperIds.length === 0)).length;
      continue;
    }
    samples.push(ms);
  }
  const totalMs = median(samples);
  return {
    channels: o.channels,
    papers: o.papers,
    runs: o.runs,
    totalMs,
    perChannelUs: round((totalMs * 1000) / o.channels),
    samplesMs: samples.map((s) => round(s)),
    messages,
    papersPosted,
    quietChannels,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = benchDigest({ channels: 1000, papers: 300, runs: 10, seed: 1 });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else
    console.log(
      `composeDigest: ${r.channels} channels over ${r.papers} candidates in ${r.totalMs} ms (median of ${r.runs}; ${r.perChannelUs} µs/channel), ${r.messages} messages, ${r.papersPosted} papers posted, ${r.quietChannels} quiet channels`,
    );
}
