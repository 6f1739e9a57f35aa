import { channelLanguages, pendingPapers, recordFailedUpgrade, saveSummary } from '../db/queries/summaries.ts';
import { grpoFamilyCount } from '../db/queries/status.ts';
import { retryAt } from '../src/services/llm/backoff.ts';
import { Budget } from '../src/services/llm/budget.ts';
import { resumeBatch, runBatch, type BatchStep } from '../src/services/summarize/batch-run.ts';
import { basisOf, withFullText } from '../src/services/summarize/full-text.ts';
import { isLang, PROMPT_VERSION, type Lang } from '../src/services/summarize/schema.ts';
import {
  summarizeDirect,
  type Outcome,
  type RunStats,
  type SummarizeItem,
} from '../src/services/summarize/summarizer.ts';
import { JobStopped, type Job, type JobDeps, type JobStats } from './index.ts';
import { round6 } from '../src/services/llm/pricing.ts';

/** At most this many papers per language per run; a larger backlog continues on the next run. */
const MAX_PER_LANG = 500;

export interface SummarizeOptions {
  /** Injected into batch polling so tests never sleep. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** Only these languages (the CLI's --lang); by default every language an enabled channel uses. */
  langs?: Lang[];
  /** Exactly these items, by direct calls (the CLI's --paper); by default the pending papers. */
  items?: SummarizeItem[];
  /** Called as each paper's outcome is stored (a progress bar). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Summarises the GRPO-family papers that have no summary yet or whose failed attempt is due again,
 * for every language an enabled channel uses (English when there are no channels). Without an API
 * key nothing is called or stored: the extractive fallback is computed when a summary is shown. A
 * batch left by an earlier run is collected (or abandoned, when it can no longer be) first; over
 * `LLM_BATCH_THRESHOLD` papers the run uses the Message Batches API. Every call is reserved against
 * the daily budget, and every cost goes to the spend ledger.
 */
export async function summarizePending(deps: JobDeps, opts: SummarizeOptions = {}): Promise<JobStats> {
  const { config, log } = deps;
  const langs = opts.langs ?? (await summaryLanguages(deps));
  const items = opts.items ?? (await pendingItems(deps, langs));
  // The family's one count, so the answer can say which part of it is pending (`familyTotal`).
  const base = {
    languages: langs.join(','),
    promptVersion: PROMPT_VERSION,
    pending: items.length,
    familyTotal: await grpoFamilyCount(deps.db),
  };
  const llm = deps.llm;
  if (!llm) return { ...base, mode: 'fallback', ok: 0, failed: 0, deferred: 0 };

  const budget = await Budget.open(deps, config.llm.dailyBudgetUsd);
  let done = 0;
  const store = async (item: SummarizeItem, o: Outcome) => {
    await storeOutcome(deps, item, o);
    opts.onProgress?.(++done, items.length);
  };
  const wait = { ...(opts.sleep && { sleep: opts.sleep }), ...(opts.signal && { signal: opts.signal }) };
  const stats = (mode: string, s: Partial<RunStats>, extra: JobStats = {}): JobStats => ({
    ...base,
    mode,
    ok: s.ok ?? 0,
    failed: s.failed ?? 0,
    deferred: s.deferred ?? 0,
    overBudget: s.overBudget ?? 0,
    budgetReached: budget.exhausted,
    stopped: s.stopped ?? null,
    stopReason: s.stopReason ?? null,
    spentTodayUsd: round6(budget.spentUsd),
    budgetUsd: config.llm.dailyBudgetUsd,
    ...extra,
  });
  const fromBatch = (
    mode: string,
    step: BatchStep,
    id: string | undefined,
    extra: Partial<RunStats> = {},
  ): JobStats => {
    const batch: JobStats = id ? { batchId: id } : {};
    if (step.state === 'collected')
      return stats(mode, { ...step.stats, ...extra, stopped: step.stats.stopped ?? extra.stopped ?? null }, batch);
    if (step.state === 'stopped') return stats(mode, { ...extra, stopped: 'config', stopReason: step.reason }, batch);
    return stats('batch-waiting', extra, batch);
  };

  // A batch left running by an earlier run is collected before anything new is started.
  let abandoned: string | null = null;
  if (!opts.items) {
    const earlier = await resumeBatch(deps, llm, budget, store, wait);
    if (earlier?.state === 'abandoned') abandoned = earlier.reason;
    else if (earlier) return fromBatch('batch-collected', earlier, undefined);
  }
  const after: JobStats = abandoned ? { batchAbandoned: abandoned } : {};

  if (!opts.items && items.length > config.llm.batchThreshold) {
    const r = await runBatch(deps, llm, items, budget, store, wait);
    const extra: Partial<RunStats> = { overBudget: r.overBudget, stopped: r.overBudget > 0 ? 'budget' : null };
    if (r.step.state === 'not-submitted') {
      return stats(
        'batch',
        {
          ...extra,
          deferred: r.affordable,
          stopped: r.step.reason === 'budget' ? 'budget' : 'api-unavailable',
          stopReason: r.step.reason,
        },
        after,
      );
    }
    return { ...fromBatch('batch', r.step, r.id, extra), ...after };
  }

  const run = await summarizeDirect(llm, items, {
    model: llm.model,
    concurrency: config.llm.concurrency,
    budget,
    onOutcome: store,
    ...(opts.signal && { signal: opts.signal }),
  });
  if (run.stopped === 'budget')
    log.warn(
      { overBudget: run.overBudget, budgetUsd: config.llm.dailyBudgetUsd },
      'daily LLM budget reached; the rest waits for tomorrow',
    );
  return stats('direct', run, after);
}

/** Every pending item of these languages, with its failed attempts so far and its full text when read. */
async function pendingItems(deps: JobDeps, langs: readonly Lang[]): Promise<SummarizeItem[]> {
  const rows = await Promise.all(
    langs.map(async (lang) => ({
      lang,
      rows: await pendingPapers(deps.db, { lang, promptVersion: PROMPT_VERSION, limit: MAX_PER_LANG, now: deps.now() }),
    })),
  );
  const texts = await withFullText(
    deps.db,
    rows.flatMap((r) => r.rows.map((x) => x.paper)),
  );
  return rows.flatMap(({ lang, rows: pending }) =>
    pending.map(({ paper, attempts, upgrade }) => ({
      paper: texts.get(paper.id)!,
      lang,
      attempts,
      ...(upgrade && { upgrade }),
    })),
  );
}

/** Languages to summarise in: those of enabled channels that we support, else English. */
export async function summaryLanguages(deps: Pick<JobDeps, 'db' | 'log'>): Promise<Lang[]> {
  const stored = await channelLanguages(deps.db);
  const unsupported = stored.filter((l) => !isLang(l));
  if (unsupported.length) deps.log.warn({ unsupported }, 'channels use languages without summaries; they get English');
  const langs = stored.filter(isLang);
  if (unsupported.length && !langs.includes('en')) langs.push('en');
  return langs.length ? langs : ['en'];
}

/**
 * Stores `ok` and `failed` outcomes with their tokens and cost (already in the spend ledger: the
 * budget settled each call); a failed paper gets its next attempt time (or none: failed for good). A deferred
 * paper stays pending and unmarked.
 */
async function storeOutcome(deps: JobDeps, item: SummarizeItem, o: Outcome): Promise<void> {
  const now = deps.now();
  const log = deps.log.child({ paper: item.paper.arxivId ?? item.paper.id, lang: item.lang });
  if (o.kind === 'deferred') {
    log.info({ error: o.error }, 'summary deferred to a later run');
    return;
  }
  const attempts = o.kind === 'failed' ? item.attempts + 1 : item.attempts;
  const retry = o.kind === 'failed' ? retryAt(attempts, now) : null;
  if (o.kind === 'failed')
    log.warn(
      { error: o.error, attempts, retryAt: retry },
      retry ? 'summary failed; tried again later' : 'summary failed for good',
    );
  if (o.kind === 'failed' && item.upgrade) {
    await recordFailedUpgrade(deps.db, {
      paperId: item.paper.id,
      lang: item.lang,
      promptVersion: PROMPT_VERSION,
      attempts,
      retryAt: retry,
      inputTokens: o.usage.input,
      outputTokens: o.usage.output,
      costUsd: o.costUsd.toFixed(6),
    });
    return;
  }
  await saveSummary(deps.db, {
    paperId: item.paper.id,
    lang: item.lang,
    promptVersion: PROMPT_VERSION,
    status: o.kind,
    model: o.model,
    content: o.kind === 'ok' ? o.content : null,
    error: o.kind === 'failed' ? o.error : null,
    inputTokens: o.usage.input,
    outputTokens: o.usage.output,
    cacheReadTokens: o.usage.cacheRead,
    cacheWriteTokens: o.usage.cacheWrite,
    costUsd: o.costUsd.toFixed(6),
    attempts,
    retryAt: retry,
    basis: basisOf(item.paper),
    createdAt: now,
  });
}

/** What an operator reads when a run stopped because the API refuses every request. */
export function stopMessage(stats: JobStats): string | null {
  if (stats.stopped === 'config')
    return `Summaries stopped: the model API refuses the configuration (${String(stats.stopReason)}). Check ANTHROPIC_MODEL and ANTHROPIC_API_KEY; no paper was marked failed.`;
  if (stats.stopped === 'systematic')
    return `Summaries stopped: ${String(stats.stopReason)}. That is not one paper's fault, so no paper was marked failed; check ANTHROPIC_MODEL (it must support structured outputs).`;
  return null;
}

/** After the daily poll (SUMMARIZE_CRON, 06:45 UTC by default), so the day's new papers have summaries before digests go out. */
export const summarizePendingJob: Job = {
  name: 'summarize-pending',
  lock: 'summarize',
  schedule: (config) => config.summarizeCron,
  run: (deps) => runSummaries(deps),
};

/** A summary run as a job: when the API refuses every request, the run's counts are kept in the log and the job fails with what to fix. */
export async function runSummaries(deps: JobDeps, opts: SummarizeOptions = {}): Promise<JobStats> {
  const stats = await summarizePending(deps, opts);
  const stop = stopMessage(stats);
  if (stop) {
    deps.log.info({ ...stats }, 'summary run stopped');
    throw new JobStopped(stop);
  }
  return stats;
}
