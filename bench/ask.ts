/**
 * Retrieval quality of /ask: recall@5 and MRR (over the top 10) of `retrievePapers` for the
 * question -> expected-paper pairs in test/fixtures/ask/questions.jsonl, on a fresh database with
 * the seed corpus. `npx tsx bench/ask.ts` prints the figures and every miss.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { importSeeds } from '../seeds/import.ts';
import { retrievePapers } from '../src/services/ask/retrieve.ts';
import { startBenchServer } from './pg.ts';

const QUESTIONS = fileURLToPath(new URL('../test/fixtures/ask/questions.jsonl', import.meta.url));
const Pair = z.object({ question: z.string().min(1), expected: z.string().regex(/^\d{4}\.\d{4,5}$/) });
export type AskPair = z.infer<typeof Pair>;

export function loadAskPairs(file = QUESTIONS): AskPair[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => Pair.parse(JSON.parse(l)));
}

export interface AskQuality {
  questions: number;
  recallAt5: number;
  mrr: number;
  /** Each question's rank of the expected paper (1-based), null when not in the top 10. */
  ranks: { question: string; expected: string; rank: number | null; top: string | null }[];
}

export async function askRetrievalQuality(db: Db, pairs: readonly AskPair[]): Promise<AskQuality> {
  const ranks: AskQuality['ranks'] = [];
  for (const p of pairs) {
    const found = (await retrievePapers(db, p.question, { k: 10 })).papers;
    const i = found.findIndex((f) => f.arxivId === p.expected);
    ranks.push({
      question: p.question,
      expected: p.expected,
      rank: i < 0 ? null : i + 1,
      top: found[0]?.arxivId ?? found[0]?.title ?? null,
    });
  }
  const n = Math.max(ranks.length, 1);
  return {
    questions: ranks.length,
    recallAt5: round3(ranks.filter((r) => r.rank !== null && r.rank <= 5).length / n),
    mrr: round3(ranks.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / n),
    ranks,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    const handle = await bench.freshDb('bench_ask');
    await importSeeds({ db: handle.db, now: () => new Date() });
    const q = await askRetrievalQuality(handle.db, loadAskPairs());
    for (const r of q.ranks.filter((x) => x.rank !== 1))
      console.log(`rank ${r.rank ?? '-'}  ${r.expected}  top ${r.top}  ${r.question}`);
    console.log(JSON.stringify({ questions: q.questions, recallAt5: q.recallAt5, mrr: q.mrr }));
    await handle.close();
  } finally {
    await bench.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
