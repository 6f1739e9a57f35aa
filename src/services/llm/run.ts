import { RunGuard, type RunStop } from './guard.ts';
import type { LlmFailure } from '../../core/llm/port.ts';

/**
 * A run of model calls over items (a summary run, a judging pass): the bookkeeping every such run
 * shares, in one place. Items are worked on at most `concurrency` at once; each result goes through
 * the run guard (guard.ts) before it is stored, so one item's failure stays its own and a run-wide
 * failure charges no item; the run stops starting items when the budget refuses a call or the guard
 * stops it. Items not started stay pending for a later run.
 */

/** What a run needs to know of one item's result; the caller's own result type extends it. */
export interface ItemResult {
  kind: 'ok' | 'failed' | 'deferred';
  /** Why the call failed, when it did (none for an answer that was unusable: that is the item's). */
  failure?: LlmFailure;
  /** A deferral because the daily budget refused the call. */
  overBudget?: boolean;
}

export interface RunCounts {
  ok: number;
  failed: number;
  deferred: number;
  /** Items left for tomorrow because the daily budget would have been passed. */
  overBudget: number;
  /** Why the run stopped starting calls early, if it did. */
  stopped: 'budget' | 'api-unavailable' | 'config' | 'systematic' | null;
  /** What the API said, when the run stopped for it. */
  stopReason: string | null;
}

const STOP_OF: Record<RunStop['kind'], RunCounts['stopped']> = {
  unavailable: 'api-unavailable',
  config: 'config',
  systematic: 'systematic',
};

export interface Recorder<I, R extends ItemResult> {
  readonly counts: RunCounts;
  record(item: I, result: R): Promise<void>;
  finish(): Promise<RunCounts>;
}

/**
 * Where a run's results go: stored as they are once known to be the item's own, and as `asRun(result)`
 * (a deferral: the item stays pending, unmarked) when the guard finds the failure was the run's.
 */
export function runRecorder<I, R extends ItemResult>(
  store: (item: I, r: R) => Promise<void>,
  asRun: (r: R) => R,
): Recorder<I, R> {
  const guard = new RunGuard<{ item: I; result: R }>();
  const counts: RunCounts = { ok: 0, failed: 0, deferred: 0, overBudget: 0, stopped: null, stopReason: null };
  const put = async (item: I, r: R) => {
    if (r.kind === 'deferred' && r.overBudget) counts.overBudget++;
    else counts[r.kind]++;
    await store(item, r);
  };
  return {
    counts,
    async record(item, result) {
      // A refused reservation, or a deferral no call caused (expired in a batch), is nobody's failure.
      if (result.kind === 'deferred' && !result.failure) return put(item, result);
      const { own, run } = guard.record({ item, result }, result.kind === 'ok' ? null : (result.failure ?? null));
      for (const x of own) await put(x.item, x.result);
      for (const x of run) await put(x.item, x.result.kind === 'failed' ? asRun(x.result) : x.result);
      if (guard.stopped && !counts.stopped) {
        counts.stopped = STOP_OF[guard.stopped.kind];
        counts.stopReason = guard.stopped.message;
      }
    },
    async finish() {
      for (const x of guard.finish()) await put(x.item, x.result);
      return counts;
    },
  };
}

export interface RunOptions<I, R extends ItemResult> {
  concurrency: number;
  signal?: AbortSignal;
  /** One item's calls; an API failure is returned in the result (`failure`), never thrown. */
  work: (item: I) => Promise<R>;
  store: (item: I, r: R) => Promise<void>;
  /** The deferral a failed result becomes when the failure was the run's. */
  asRun: (r: R) => R;
  /** Items with the same key run one after another, in order, on one worker (e.g. one paper's languages, so the second call reads the first one's cache). */
  sequentialBy?: (item: I) => string | number;
}

/** Items in groups of the same key, groups in order of first appearance; one group per item without a key. */
function groupItems<I>(items: readonly I[], key?: (item: I) => string | number): I[][] {
  if (!key) return items.map((i) => [i]);
  const groups = new Map<string | number, I[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}

/** Works through the items (see the module comment) and returns what became of them. */
export async function runItems<I, R extends ItemResult>(items: readonly I[], o: RunOptions<I, R>): Promise<RunCounts> {
  const rec = runRecorder(o.store, o.asRun);
  const groups = groupItems(items, o.sequentialBy);
  let next = 0;
  let started = 0;
  const worker = async () => {
    while (next < groups.length && !rec.counts.stopped && !o.signal?.aborted) {
      for (const item of groups[next++]!) {
        if (rec.counts.stopped || o.signal?.aborted) break;
        started++;
        const result = await o.work(item);
        if (result.kind === 'deferred' && result.overBudget) rec.counts.stopped ??= 'budget';
        await rec.record(item, result);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, groups.length)) }, worker));
  const counts = await rec.finish();
  if (counts.stopped === 'budget') counts.overBudget += items.length - started;
  return counts;
}
