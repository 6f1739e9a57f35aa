import type { Paper } from '../db/schema.ts';
import { papersInOrder } from '../db/queries/papers.ts';
import {
  channelLanguages, getPendingBatch, pendingPapers, saveSummary, setPendingBatch, spendToday, type PendingBatch,
} from '../db/queries/summaries.ts';
import { batchStepError, collectBatch, customId, submitBatch, waitForBatch } from '../src/summarize/batch.ts';
import { Budget } from '../src/summarize/budget.ts';
import type { Llm } from '../src/llm/port.ts';
import { estimateCostUsd } from '../src/summarize/pricing.ts';
import { MAX_TOKENS, promptChars } from '../src/summarize/prompt.ts';
import { isLang, PROMPT_VERSION, type Lang } from '../src/summarize/schema.ts';
import { summarizeDirect, type Outcome, type SummarizeItem } from '../src/summarize/summarizer.ts';
import type { Job, JobDeps, JobStats } from './index.ts';

/** At most this many papers per language per run; a larger backlog continues on the next run. */
const MAX_PER_LANG = 500;

export interface SummarizeOptions {
  /** Injected into batch polling so tests never sleep. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Summarises the GRPO-family papers that have no summary yet, for every language an enabled
 * channel uses (English when there are no channels). Without an API key nothing is called or
 * stored: the extractive fallback is computed when a summary is shown. Over `LLM_BATCH_THRESHOLD`
 * papers the run uses the Message Batches API. The daily budget is checked before every call.
 */
export async function summarizePending(deps: JobDeps, opts: SummarizeOptions = {}): Promise<JobStats> {
  const { config, db, log } = deps;
  const langs = await languages(deps);
  const items: SummarizeItem[] = [];
  for (const lang of langs) {
    for (const paper of await pendingPapers(db, { lang, promptVersion: PROMPT_VERSION, limit: MAX_PER_LANG })) items.push({ paper, lang });
  }
  const base = { languages: langs.join(','), promptVersion: PROMPT_VERSION, pending: items.length };
  const client = deps.llm;
  if (!client) return { ...base, mode: 'fallback', ok: 0, failed: 0, deferred: 0 };

  const budget = new Budget(config.llm.dailyBudgetUsd, await spendToday(db, deps.now()));
  const model = client.model;
  const store = storeOutcome(deps);
  const stats = (mode: string, s: { ok: number; failed: number; deferred: number; overBudget?: number; stopped?: string | null }, extra: JobStats = {}): JobStats => ({
    ...base, mode, ok: s.ok, failed: s.failed, deferred: s.deferred, overBudget: s.overBudget ?? 0,
    budgetReached: budget.exhausted, stopped: s.stopped ?? null,
    spentTodayUsd: Math.round(budget.spentUsd * 1e6) / 1e6, budgetUsd: config.llm.dailyBudgetUsd, ...extra,
  });

  // A batch left running by an earlier run is collected before anything new is started.
  const earlier = await getPendingBatch(db);
  if (earlier) {
    const done = await finishBatch(deps, client, earlier, store, opts);
    if (!done) return stats('batch-waiting', { ok: 0, failed: 0, deferred: 0 }, { batchId: earlier.id });
    return stats('batch-collected', done, { batchId: earlier.id });
  }

  if (items.length > config.llm.batchThreshold) {
    // Reserve batch-priced estimates in order until the budget is used; the rest waits for tomorrow.
    const affordable = items.filter((i) => budget.tryReserve(estimateCostUsd(model, promptChars(i.paper, i.lang), MAX_TOKENS, { batch: true })));
    const overBudget = items.length - affordable.length;
    if (affordable.length === 0) return stats('batch', { ok: 0, failed: 0, deferred: 0, overBudget, stopped: 'budget' });
    let id: string;
    try {
      id = await submitBatch(client, affordable, model);
    } catch (err) {
      log.warn({ err: batchStepError(client, err) }, 'batch not submitted; the next run tries again');
      return stats('batch', { ok: 0, failed: 0, deferred: affordable.length, overBudget, stopped: 'api-unavailable' });
    }
    const pending: PendingBatch = {
      id, model, createdAt: deps.now().toISOString(),
      items: affordable.map((i) => ({ customId: customId({ paperId: i.paper.id, lang: i.lang }), paperId: i.paper.id, lang: i.lang })),
    };
    await setPendingBatch(db, pending, deps.now());
    log.info({ batch: id, papers: affordable.length }, 'summary batch submitted');
    const done = await finishBatch(deps, client, pending, store, opts);
    const stopped = overBudget > 0 ? 'budget' : null;
    if (!done) return stats('batch-waiting', { ok: 0, failed: 0, deferred: 0, overBudget, stopped }, { batchId: id });
    return stats('batch', { ...done, overBudget, stopped }, { batchId: id });
  }

  const run = await summarizeDirect(client, items, { model, concurrency: config.llm.concurrency, budget, onOutcome: store, signal: opts.signal });
  if (run.stopped === 'budget') log.warn({ overBudget: run.overBudget, budgetUsd: config.llm.dailyBudgetUsd }, 'daily LLM budget reached; the rest waits for tomorrow');
  return stats('direct', run);
}

/** Languages to summarise in: those of enabled channels that we support, else English. */
async function languages(deps: JobDeps): Promise<Lang[]> {
  const stored = await channelLanguages(deps.db);
  const unsupported = stored.filter((l) => !isLang(l));
  if (unsupported.length) deps.log.warn({ unsupported }, 'channels use languages without summaries; they get English');
  const langs = stored.filter(isLang);
  if (unsupported.length && !langs.includes('en')) langs.push('en');
  return langs.length ? langs : ['en'];
}

/** Waits for a batch and stores its outcomes; false when it is still running (kept for the next run). */
async function finishBatch(
  deps: JobDeps, client: Llm, b: PendingBatch, store: (i: SummarizeItem, o: Outcome) => Promise<void>, opts: SummarizeOptions,
): Promise<{ ok: number; failed: number; deferred: number } | false> {
  const { llm } = deps.config;
  try {
    if (!(await waitForBatch(client, b.id, { pollMs: llm.batchPollMs, maxWaitMs: llm.batchMaxWaitMs, sleep: opts.sleep, signal: opts.signal }))) {
      deps.log.info({ batch: b.id }, 'summary batch still running; the next run collects it');
      return false;
    }
    const byId = new Map((await papersInOrder(deps.db, b.items.map((i) => i.paperId))).map((p): [number, Paper] => [p.id, p]));
    const items = new Map<string, SummarizeItem>();
    for (const i of b.items) {
      const paper = byId.get(i.paperId);
      if (paper && isLang(i.lang)) items.set(i.customId, { paper, lang: i.lang });
    }
    const counts = await collectBatch(client, b.id, items, b.model, store);
    await setPendingBatch(deps.db, null, deps.now());
    return counts;
  } catch (err) {
    deps.log.warn({ batch: b.id, err: batchStepError(client, err) }, 'summary batch not collected; the next run tries again');
    return false;
  }
}

/** Stores `ok` and `failed` outcomes with their tokens and cost; a deferred paper stays pending. */
function storeOutcome(deps: JobDeps): (item: SummarizeItem, o: Outcome) => Promise<void> {
  return async (item, o) => {
    const log = deps.log.child({ paper: item.paper.arxivId ?? item.paper.id, lang: item.lang });
    if (o.kind === 'deferred') {
      log.warn({ error: o.error }, 'summary deferred to the next run');
      return;
    }
    if (o.kind === 'failed') log.warn({ error: o.error }, 'summary failed');
    await saveSummary(deps.db, {
      paperId: item.paper.id, lang: item.lang, promptVersion: PROMPT_VERSION, status: o.kind, model: o.model,
      content: o.kind === 'ok' ? o.content : null, error: o.kind === 'failed' ? o.error : null,
      inputTokens: o.usage.input, outputTokens: o.usage.output, cacheReadTokens: o.usage.cacheRead, cacheWriteTokens: o.usage.cacheWrite,
      costUsd: o.costUsd.toFixed(6), createdAt: deps.now(),
    });
  };
}

/** After the daily poll (SUMMARIZE_CRON, 06:45 UTC by default), so the day's new papers have summaries before digests go out. */
export const summarizePendingJob: Job = {
  name: 'summarize-pending',
  lock: 'summarize',
  schedule: (config) => config.summarizeCron,
  run: (deps) => summarizePending(deps),
};
