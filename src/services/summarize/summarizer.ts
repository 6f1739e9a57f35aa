import type { Budget } from '../llm/budget.ts';
import type { Llm, LlmFailure } from '../../core/llm/port.ts';
import { runItems, runRecorder, type Recorder, type RunCounts } from '../llm/run.ts';
import type { TokenUsage } from '../llm/pricing.ts';
import { callStructured, type StructuredCall } from '../llm/structured.ts';
import { summaryReader } from './answer.ts';
import { evidenceText, summaryRequest, type SummaryInput } from './prompt.ts';
import type { Lang, SummaryContent } from './schema.ts';

export interface SummarizeItem {
  paper: SummaryInput;
  lang: Lang;
  /** Failed attempts stored for this paper and language so far (0 for a new paper). */
  attempts: number;
  /** Redoing an `ok` summary written from the abstract alone, now that the full text is read: a failure keeps the old summary. */
  upgrade?: boolean;
}

/**
 * What became of one paper. `ok` and `failed` are stored (a failed one is tried again later, see
 * src/services/llm/backoff.ts); `deferred` leaves the paper pending, unmarked. Each carries what it cost.
 */
export type Outcome = { usage: TokenUsage; costUsd: number; model: string } & (
  | { kind: 'ok'; content: SummaryContent }
  | { kind: 'failed'; error: string; failure?: LlmFailure }
  | { kind: 'deferred'; error: string; failure?: LlmFailure; overBudget?: boolean }
);

export interface OneOptions {
  model: string;
  budget?: Budget;
  signal?: AbortSignal;
  /** The first attempt when it already happened (a batch result), with its share of the batch's reservation. */
  prior?: StructuredCall<unknown>['prior'];
}

/**
 * One paper: the structured call (one retry for a refused, cut-off or malformed answer), then its
 * outcome. An answer that cannot be used, or a request the API rejects, fails the paper (for now);
 * an outage, a configuration problem or the budget leaves it pending.
 */
export async function summarizeOne(llm: Llm, item: SummarizeItem, o: OneOptions): Promise<Outcome> {
  const r = await callStructured(llm, summaryRequest(item.paper, item.lang, o.model), {
    read: summaryReader(evidenceText(item.paper)),
    ...(o.budget && { budget: o.budget }),
    ...(o.signal && { signal: o.signal }),
    ...(o.prior && { prior: o.prior }),
  });
  const base = { usage: r.usage, costUsd: r.costUsd, model: o.model };
  if (r.ok) return { ...base, kind: 'ok', content: r.value };
  if (r.problem === 'over-budget') return { ...base, kind: 'deferred', error: r.error, overBudget: true };
  if (r.problem === 'api' && r.failure?.kind !== 'rejected')
    return { ...base, kind: 'deferred', error: r.error, ...(r.failure && { failure: r.failure }) };
  return {
    ...base,
    kind: 'failed',
    error: r.problem === 'api' ? `rejected: ${r.error}` : r.error,
    ...(r.failure && { failure: r.failure }),
  };
}

/** What became of a run's papers (see src/services/llm/run.ts). */
export type RunStats = RunCounts;

/** Where a run's outcomes go, through the run guard (batch collection records them one by one). */
export const outcomeRecorder = (
  store: (item: SummarizeItem, o: Outcome) => Promise<void>,
): Recorder<SummarizeItem, Outcome> => runRecorder(store, asRun);

/** A failure that turned out to be the run's: the paper stays pending, charged nothing. */
const asRun = (o: Outcome): Outcome =>
  o.kind === 'failed'
    ? { ...o, kind: 'deferred', error: `not charged to this paper (the run's problem): ${o.error}` }
    : o;

export interface DirectOptions {
  model: string;
  concurrency: number;
  budget: Budget;
  /** Stores each outcome as soon as it is known, so a crash loses at most the calls in flight. */
  onOutcome: (item: SummarizeItem, outcome: Outcome) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Summarises papers one call each, at most `concurrency` at once, each attempt reserved against the
 * budget. One paper's failure never stops the others; the run stops starting calls when the budget
 * is reached or the guard finds a run-wide problem (an outage, the configuration, the same rejection
 * twice in a row). Papers not started stay pending.
 */
export function summarizeDirect(llm: Llm, items: readonly SummarizeItem[], o: DirectOptions): Promise<RunStats> {
  return runItems(items, {
    concurrency: o.concurrency,
    // One paper's languages one after the other: the second reads the paper's prefix from the cache the first wrote.
    sequentialBy: (item) => item.paper.id,
    ...(o.signal && { signal: o.signal }),
    work: (item) =>
      summarizeOne(llm, item, { model: o.model, budget: o.budget, ...(o.signal && { signal: o.signal }) }),
    store: o.onOutcome,
    asRun,
  });
}
