import { readAnswer } from './answer.ts';
import type { Budget } from './budget.ts';
import { errorMessage, type Llm, type Message } from '../llm/port.ts';
import { addUsage, costUsd, estimateCostUsd, NO_USAGE, type TokenUsage } from './pricing.ts';
import { MAX_TOKENS, promptChars, summaryRequest, type PaperText } from './prompt.ts';
import type { Lang, SummaryContent } from './schema.ts';

export interface SummarizeItem {
  paper: PaperText;
  lang: Lang;
}

/** What became of one paper. `ok` and `failed` are stored; `deferred` leaves the paper for the next run. */
export type Outcome =
  | { kind: 'ok'; content: SummaryContent; usage: TokenUsage; costUsd: number; model: string }
  | { kind: 'failed'; error: string; usage: TokenUsage; costUsd: number; model: string }
  | { kind: 'deferred'; error: string };

/** The first attempt when it already happened elsewhere (a batch result): its message and whether it was billed at batch price. */
export interface PriorAttempt {
  message: Pick<Message, 'content' | 'stop_reason' | 'usage'>;
  batch: boolean;
}

/** Thrown when nothing else can work (bad key, unknown model): the run stops and reports it. */
export class FatalApiError extends Error {
  override name = 'FatalApiError';
}

/**
 * One paper: a call, and one more if the answer was refused, malformed or of the wrong shape;
 * then `failed` with the error. Every attempt's tokens and cost are counted, also for failures.
 * A 400 fails the paper at once (resending the same request cannot help); rate limits and
 * outages after the SDK's own retries defer it.
 */
export async function summarizeOne(llm: Llm, item: SummarizeItem, model: string, prior?: PriorAttempt): Promise<Outcome> {
  let usage = NO_USAGE;
  let cost = 0;
  let lastError = '';
  const attempts: (PriorAttempt | null)[] = prior ? [prior, null] : [null, null];
  for (const attempt of attempts) {
    let message: PriorAttempt['message'];
    let batch = false;
    if (attempt) {
      ({ message, batch } = attempt);
    } else {
      try {
        message = await llm.create(summaryRequest(item.paper, item.lang, model));
      } catch (err) {
        const kind = llm.failureOf(err);
        if (kind === 'fatal') throw new FatalApiError(errorMessage(err));
        if (kind === 'paper') return { kind: 'failed', error: `rejected: ${errorMessage(err)}`, usage, costUsd: cost, model };
        return usage === NO_USAGE ? { kind: 'deferred', error: errorMessage(err) } : { kind: 'failed', error: `${lastError}; retry: ${errorMessage(err)}`, usage, costUsd: cost, model };
      }
    }
    const answer = readAnswer(message);
    usage = addUsage(usage, answer.usage);
    cost += costUsd(model, answer.usage, { batch });
    if (answer.ok) return { kind: 'ok', content: answer.content, usage, costUsd: round6(cost), model };
    lastError = lastError ? `${lastError}; retry: ${answer.error}` : answer.error;
  }
  return { kind: 'failed', error: lastError, usage, costUsd: round6(cost), model };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export interface DirectOptions {
  model: string;
  concurrency: number;
  budget: Budget;
  /** Stores each outcome as soon as it is known, so a crash loses at most the calls in flight. */
  onOutcome: (item: SummarizeItem, outcome: Outcome) => Promise<void>;
  signal?: AbortSignal;
}

export interface RunStats {
  ok: number;
  failed: number;
  deferred: number;
  /** Papers not started because the daily budget would have been passed. */
  overBudget: number;
  /** Why the run stopped starting calls early, if it did. */
  stopped: 'budget' | 'api-unavailable' | null;
}

/** Consecutive deferrals after which the API is taken to be down for this run. */
const UNAVAILABLE_AFTER = 3;

/**
 * Summarises papers one call each, at most `concurrency` at once, each start reserved against the
 * budget. One paper's failure never stops the others; only a fatal API error (thrown after the
 * calls in flight finish) or an outage (several deferrals in a row) ends the run early.
 */
export async function summarizeDirect(llm: Llm, items: readonly SummarizeItem[], o: DirectOptions): Promise<RunStats> {
  const stats: RunStats = { ok: 0, failed: 0, deferred: 0, overBudget: 0, stopped: null };
  let next = 0;
  let deferredInARow = 0;
  let fatal: unknown;
  const worker = async () => {
    while (next < items.length && !stats.stopped && !fatal && !o.signal?.aborted) {
      const item = items[next++]!;
      const estimate = estimateCostUsd(o.model, promptChars(item.paper, item.lang), MAX_TOKENS);
      if (!o.budget.tryReserve(estimate)) {
        stats.stopped = 'budget';
        break;
      }
      let outcome: Outcome;
      try {
        outcome = await summarizeOne(llm, item, o.model);
      } catch (err) {
        o.budget.settle(estimate, 0);
        fatal = err;
        break;
      }
      o.budget.settle(estimate, outcome.kind === 'deferred' ? 0 : outcome.costUsd);
      stats[outcome.kind]++;
      deferredInARow = outcome.kind === 'deferred' ? deferredInARow + 1 : 0;
      if (deferredInARow >= UNAVAILABLE_AFTER) stats.stopped ??= 'api-unavailable';
      await o.onOutcome(item, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, items.length)) }, worker));
  if (fatal) throw fatal;
  if (stats.stopped === 'budget') stats.overBudget = items.length - stats.ok - stats.failed - stats.deferred;
  return stats;
}
