import type { Budget } from '../llm/budget.ts';
import { classifyBatchError } from '../llm/classify.ts';
import { failureOf, type Llm, type MessageBatch, type MessageBatchIndividualResponse } from '../../core/llm/port.ts';
import { estimateRequestUsd, NO_USAGE } from '../llm/pricing.ts';
import { summaryRequest } from './prompt.ts';
import { outcomeRecorder, summarizeOne, type Outcome, type RunStats, type SummarizeItem } from './summarizer.ts';

/**
 * Backfills through the Message Batches API: half price, results within 24 h. A batch is
 * submitted, polled, then its results read with the SDK's `results()` (which follows the batch's
 * absolute `results_url`). The caller persists the batch id between steps so a batch that outlives
 * one run is collected by the next, never submitted twice; a batch that can no longer be collected
 * (unknown to this key, expired or archived without results) is abandoned and its papers stay pending.
 */

/** custom_id: `<paper id>-<lang>` (the API allows [a-zA-Z0-9_-]{1,64}). */
export const customId = (item: Pick<SummarizeItem, 'lang'> & { paperId: number }): string =>
  `${item.paperId}-${item.lang}`;

export async function submitBatch(llm: Llm, items: readonly SummarizeItem[], model: string): Promise<string> {
  const batch = await llm.createBatch(
    items.map((i) => ({
      custom_id: customId({ paperId: i.paper.id, lang: i.lang }),
      params: summaryRequest(i.paper, i.lang, model),
    })),
  );
  return batch.id;
}

export interface WaitOptions {
  pollMs: number;
  maxWaitMs: number;
  /** Injected so tests never sleep. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Where a batch stands: `ended` with results to read, `running` after `maxWaitMs` (collect it on a
 * later run), or `lost` with the reason (a 404: the key was rotated to another workspace; ended
 * without a `results_url`: expired, canceled or archived). API errors other than a 404 are thrown.
 */
export async function waitForBatch(
  llm: Llm,
  id: string,
  o: WaitOptions,
): Promise<{ state: 'ended' | 'running' } | { state: 'lost'; reason: string }> {
  const sleep = o.sleep ?? realSleep;
  // The time waited is counted, not read from a clock: the calls between sleeps are short next to
  // `pollMs`, and a zero interval (tests) still counts each poll as a millisecond, so the wait ends.
  let waited = 0;
  for (;;) {
    let b: MessageBatch;
    try {
      b = await llm.retrieveBatch(id);
    } catch (err) {
      if (failureOf(err)?.kind === 'gone')
        return { state: 'lost', reason: `the API does not know this batch (${failureOf(err)!.message})` };
      throw err;
    }
    if (b.processing_status === 'ended') {
      if (b.archived_at)
        return { state: 'lost', reason: `the batch was archived on ${b.archived_at}; its results are gone` };
      if (!b.results_url) return { state: 'lost', reason: 'the batch ended without results (expired or canceled)' };
      return { state: 'ended' };
    }
    if (waited >= o.maxWaitMs || o.signal?.aborted) return { state: 'running' };
    await sleep(o.pollMs);
    waited += Math.max(o.pollMs, 1);
  }
}

/**
 * Reads an ended batch's results into one outcome per item, through the run guard. A good answer is
 * billed at batch price; a malformed, refused or cut-off one is retried once as a direct call (full
 * price, reserved against the budget). An errored request is a rejection when it was invalid (the guard decides whether the paper
 * or the run was at fault), else (overload, expiry, cancel) the paper stays pending. Items already
 * stored from this batch by an earlier, interrupted read are skipped by the caller.
 */
export async function collectBatch(
  llm: Llm,
  id: string,
  items: ReadonlyMap<string, SummarizeItem>,
  o: { model: string; budget: Budget; reservation?: string | null },
  onOutcome: (item: SummarizeItem, outcome: Outcome) => Promise<void>,
): Promise<RunStats> {
  const rec = outcomeRecorder(onOutcome);
  const seen = new Set<string>();
  for await (const r of await llm.batchResults(id)) {
    const item = items.get(r.custom_id);
    if (!item || seen.has(r.custom_id)) continue;
    seen.add(r.custom_id);
    await rec.record(item, await outcomeOf(llm, item, r, o));
  }
  for (const [key, item] of items)
    if (!seen.has(key))
      await rec.record(item, {
        kind: 'deferred',
        error: 'missing from the batch results',
        usage: NO_USAGE,
        costUsd: 0,
        model: o.model,
      });
  return rec.finish();
}

async function outcomeOf(
  llm: Llm,
  item: SummarizeItem,
  r: MessageBatchIndividualResponse,
  o: { model: string; budget: Budget; reservation?: string | null },
): Promise<Outcome> {
  const res = r.result;
  const none = { usage: NO_USAGE, costUsd: 0, model: o.model };
  if (res.type === 'succeeded') {
    // Its cost replaces its share of the batch's reservation (the estimate it was reserved at).
    const partUsd = estimateRequestUsd(summaryRequest(item.paper, item.lang, o.model), { batch: true });
    const reserved = { key: o.reservation ?? null, partUsd };
    return summarizeOne(llm, item, {
      model: o.model,
      budget: o.budget,
      prior: { message: res.message, batch: true, reserved },
    });
  }
  if (res.type === 'errored') {
    const failure = classifyBatchError(res.error.error);
    return failure.kind === 'rejected'
      ? { ...none, kind: 'failed', error: `rejected in batch: ${failure.message}`, failure }
      : { ...none, kind: 'deferred', error: `batch request errored: ${failure.message}`, failure };
  }
  return { ...none, kind: 'deferred', error: `batch request ${res.type}` };
}
