/**
 * Search quality on chat-style questions (test/fixtures/search): MRR@10, recall@5 and hit@5 of
 * `/paper search` (searchPapers) and of `/ask` retrieval (retrievePapers), per split, kind and
 * language, on a fresh database with the seed corpus.
 *
 *   npx tsx bench/search-quality.ts [--split dev|test|howto-dev|howto-test|all] [--misses] [--search-only]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { importSeeds } from '../seeds/import.ts';
import { retrievePapers } from '../src/services/ask/retrieve.ts';
import { searchPapers } from '../src/services/search/search.ts';
import { startBenchServer, type BenchServer } from './pg.ts';

const Question = z.object({
  id: z.string(),
  question: z.string().min(1),
  lang: z.enum(['en', 'zh']),
  kind: z.string(),
  relevant: z.array(z.string()).min(1),
});
export type Question = z.infer<typeof Question>;
/** The chat questions (dev, test) and the practitioners' questions (howto-dev, howto-test): test files are frozen. */
export const SPLITS = ['dev', 'test', 'howto-dev', 'howto-test'] as const;
export type Split = (typeof SPLITS)[number];

export function loadQuestions(split: Split): Question[] {
  const file = fileURLToPath(new URL(`../test/fixtures/search/${split}.jsonl`, import.meta.url));
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => Question.parse(JSON.parse(l)));
}

/** A ranked paper as the evaluation names it: its arXiv id, or `title:<key>` for a paper known only by title. */
interface Ranked {
  arxivId: string | null;
  titleKey: string;
  title: string;
}
const keyOf = (p: Ranked) => p.arxivId ?? `title:${p.titleKey}`;

export interface Scores {
  n: number;
  mrr10: number;
  recall5: number;
  hit5: number;
}

export interface QuestionResult {
  q: Question;
  /** 1-based rank of the first relevant paper within the top 10, null when none. */
  rank: number | null;
  recall5: number;
  top: string[];
}

export function score(q: Question, ranked: readonly Ranked[]): QuestionResult {
  const keys = ranked.slice(0, 10).map(keyOf);
  const rel = new Set(q.relevant);
  const i = keys.findIndex((k) => rel.has(k));
  const inTop5 = keys.slice(0, 5).filter((k) => rel.has(k)).length;
  return {
    q,
    rank: i < 0 ? null : i + 1,
    recall5: inTop5 / Math.min(rel.size, 5),
    top: ranked.slice(0, 5).map((p) => `${keyOf(p)} ${p.title.slice(0, 60)}`),
  };
}

export function summarize(results: readonly QuestionResult[]): Scores {
  const n = Math.max(results.length, 1);
  return {
    n: results.length,
    mrr10: round3(results.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / n),
    recall5: round3(results.reduce((s, r) => s + r.recall5, 0) / n),
    hit5: round3(results.filter((r) => r.rank !== null && r.rank <= 5).length / n),
  };
}

export type Retriever = 'search' | 'ask';

/** The top 10 of a question through one of the two retrieval paths. */
async function rank(db: Db, retriever: Retriever, question: string): Promise<Ranked[]> {
  if (retriever === 'ask') return (await retrievePapers(db, question, { k: 10 })).papers;
  const { hits } = await searchPapers(db, question, { limit: 10 });
  return hits;
}

export interface QualityReport {
  split: Split;
  retriever: Retriever;
  overall: Scores;
  byLang: Record<string, Scores>;
  byKind: Record<string, Scores>;
  results: QuestionResult[];
}

export async function searchQuality(db: Db, split: Split, retriever: Retriever): Promise<QualityReport> {
  const results: QuestionResult[] = [];
  for (const q of loadQuestions(split)) results.push(score(q, await rank(db, retriever, q.question)));
  const groupBy = (f: (r: QuestionResult) => string) => {
    const groups = new Map<string, QuestionResult[]>();
    for (const r of results) groups.set(f(r), [...(groups.get(f(r)) ?? []), r]);
    return Object.fromEntries([...groups].sort().map(([k, v]) => [k, summarize(v)]));
  };
  return {
    split,
    retriever,
    overall: summarize(results),
    byLang: groupBy((r) => r.q.lang),
    byKind: groupBy((r) => r.q.kind),
    results,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export type SearchQualityResult = Omit<QualityReport, 'results'>[];

/** `npm run bench -- --only quality`: every split through `/paper search`'s ranking on a fresh seeded database (`/ask` retrieves the same). */
export async function benchSearchQuality(bench: BenchServer): Promise<SearchQualityResult> {
  const handle = await bench.freshDb('bench_search_quality');
  try {
    await importSeeds({ db: handle.db, now: () => new Date() });
    const out: SearchQualityResult = [];
    for (const split of SPLITS) {
      const { results: _r, ...r } = await searchQuality(handle.db, split, 'search');
      out.push(r);
    }
    return out;
  } finally {
    await handle.close();
  }
}

export function searchQualityReport(r: SearchQualityResult): string {
  const row = (name: string, s: Scores | undefined) =>
    s ? `| ${name} | ${s.n} | ${s.mrr10.toFixed(3)} | ${s.hit5.toFixed(3)} | ${s.recall5.toFixed(3)} |` : '';
  const lines = [
    "Search quality on chat questions (dev, test) and practitioners' questions (howto-dev, howto-test); test files frozen before tuning",
    '| split · slice | n | MRR@10 | hit@5 | recall@5 |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const q of r) {
    lines.push(
      row(`**${q.split}**`, q.overall),
      row(`${q.split} · English`, q.byLang.en),
      row(`${q.split} · Chinese`, q.byLang.zh),
    );
    for (const [kind, s] of Object.entries(q.byKind)) lines.push(row(`${q.split} · ${kind}`, s));
  }
  return [...lines.filter(Boolean), ''].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'all' },
      misses: { type: 'boolean', default: false },
      'search-only': { type: 'boolean', default: false },
    },
  });
  const splits: Split[] = values.split === 'all' ? [...SPLITS] : [values.split as Split];
  const bench = await startBenchServer();
  try {
    const handle = await bench.freshDb('bench_search_quality');
    await importSeeds({ db: handle.db, now: () => new Date() });
    for (const split of splits) {
      for (const retriever of values['search-only'] ? (['search'] as const) : (['search', 'ask'] as const)) {
        const r = await searchQuality(handle.db, split, retriever);
        console.log(
          `${split} ${retriever}: ${JSON.stringify(r.overall)} en ${JSON.stringify(r.byLang.en)} zh ${JSON.stringify(r.byLang.zh)}`,
        );
        for (const [kind, s] of Object.entries(r.byKind)) console.log(`  ${kind.padEnd(11)} ${JSON.stringify(s)}`);
        if (values.misses) {
          for (const m of r.results.filter((x) => x.rank !== 1))
            console.log(
              `  [${m.rank ?? '-'}] ${m.q.id} ${m.q.question}\n      want ${m.q.relevant.slice(0, 3).join(' ')}\n      got  ${m.top.slice(0, 3).join('\n           ')}`,
            );
        }
      }
    }
    await handle.close();
  } finally {
    await bench.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
