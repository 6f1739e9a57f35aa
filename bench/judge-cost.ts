/**
 * What the relevance judge costs on a real day: each labelled arXiv day's papers stored with the
 * key-less filter's scores, then the real judge (src/services/relevance/judge.ts) through the real SDK against
 * the local fake API in proportional mode (tokens ~ characters / 3.5, a cached prefix written once and
 * read after, as the real API bills it). Reports per day: papers judged, calls, tokens, cache reads,
 * dollars at the configured model's list price, and the same without the cache. The fake's answers
 * are not the model's, so this measures cost, not quality.
 *
 *   npx tsx bench/judge-cost.ts
 */
import pino from 'pino';
import { pathToFileURL } from 'node:url';
import { papers } from '../db/schema.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { classifyPaper } from '../src/core/papers/classify.ts';
import { buildDeps } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { judgePending } from '../src/services/relevance/judge.ts';
import { costUsd } from '../src/services/llm/pricing.ts';
import { startFakeAnthropicServer } from '../test/helpers/fake-anthropic-server.ts';
import { days, DAY_SPLIT, loadDay } from './classify-days.ts';
import { startBenchServer } from './pg.ts';

export interface DayCost {
  day: string;
  papers: number;
  judged: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  usd: number;
  usdWithoutCache: number;
}

export async function judgeCost(): Promise<DayCost[]> {
  const fake = await startFakeAnthropicServer({
    usage: 'proportional',
    okAnswer: () => ({
      in_family: false,
      reason: 'Classic RL for control; no language model is trained.',
      families: [],
    }),
  });
  const bench = await startBenchServer();
  const out: DayCost[] = [];
  try {
    for (const day of days()) {
      const handle = await bench.freshDb(`judge_cost_${day.replace(/-/g, '_')}`);
      const now = new Date(`${day}T12:00:00Z`);
      const rows = loadDay(day).map((p) => {
        const c = classifyPaper(p);
        return {
          arxivId: p.id,
          title: p.title,
          titleKey: titleKey(p.title),
          abstract: p.abstract,
          rulesFamily: c.grpoFamily,
          rulesScore: c.score,
          firstSeenAt: now,
        };
      });
      for (let i = 0; i < rows.length; i += 500) await handle.db.insert(papers).values(rows.slice(i, i + 500));
      fake.reset();
      const config = loadConfig({
        ANTHROPIC_API_KEY: 'bench-key',
        ANTHROPIC_BASE_URL: fake.base,
        LLM_CONCURRENCY: '1',
        LLM_DAILY_BUDGET_USD: '100',
      });
      const stats = await judgePending(
        buildDeps({ db: handle.db, sql: handle.sql, config, log: pino({ level: 'silent' }), now: () => now }),
      );
      const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      const judged = await handle.sql<{ input: number; output: number; read: number; write: number }[]>`
        select sum(input_tokens)::int as input, sum(output_tokens)::int as output, sum(cache_read_tokens)::int as read, sum(cache_write_tokens)::int as write from family_judgements`;
      usage.input = judged[0]?.input ?? 0;
      usage.output = judged[0]?.output ?? 0;
      usage.cacheRead = judged[0]?.read ?? 0;
      usage.cacheWrite = judged[0]?.write ?? 0;
      const model = config.anthropic.model;
      const uncached = {
        input: usage.input + usage.cacheRead + usage.cacheWrite,
        output: usage.output,
        cacheRead: 0,
        cacheWrite: 0,
      };
      out.push({
        day: `${day} (${DAY_SPLIT[day]})`,
        papers: rows.length,
        judged: stats.in + stats.out + stats.failed,
        ...usage,
        usd: Math.round(stats.costUsd * 10_000) / 10_000,
        usdWithoutCache: Math.round(costUsd(model, uncached) * 10_000) / 10_000,
      });
      await handle.close();
    }
  } finally {
    await bench.stop();
    await fake.close();
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const d of await judgeCost()) console.log(JSON.stringify(d));
}
