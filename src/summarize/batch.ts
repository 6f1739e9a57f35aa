import { errorMessage, type Llm, type MessageBatchIndividualResponse } from '../llm/port.ts';
import { summaryRequest } from './prompt.ts';
import { FatalApiError, summarizeOne, type Outcome, type SummarizeItem } from './summarizer.ts';

/**
 * Backfills through the Message Batches API: half price, results within 24 h. A batch is
 * submitted, polled, then its results read with the SDK's `results()` (which follows the batch's
 * absolute `results_url`). The caller persists the batch id between steps so a batch that outlives
 * one run is collected by the next, never submitted twice.
 */

/** custom_id: `<paper id>-<lang>` (the API allows [a-zA-Z0-9_-]{1,64}). */
export const customId = (item: Pick<SummarizeItem, 'lang'> & { paperId: number }): string => `${item.paperId}-${item.lang}`;

export async function submitBatch(llm: Llm, items: readonly SummarizeItem[], model: string): Promise<string> {
  const batch = await llm.createBatch(
    items.map((i) => ({ custom_id: customId({ paperId: i.paper.id, lang: i.lang }), params: summaryRequest(i.paper, i.lang, model) })),
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

/** Polls until the batch has ended (true) or `maxWaitMs` has passed (false: collect it on a later run). */
export async function waitForBatch(llm: Llm, id: string, o: WaitOptions): Promise<boolean> {
  const sleep = o.sleep ?? realSleep;
  const deadline = Date.now() + o.maxWaitMs;
  for (;;) {
    const b = await llm.retrieveBatch(id);
    if (b.processing_status === 'ended') return true;
    if (Date.now() >= deadline || o.signal?.aborted) return false;
    await sleep(o.pollMs);
  }
}

/**
 * Reads an ended batch's results into one outcome per item. A good answer is billed at batch price;
 * a malformed or refused one is retried once as a direct call (full price) before the paper fails.
 * An errored request fails the paper if it was invalid, else (overload, expiry, cancel) defers it.
 */
export async function collectBatch(
  llm: Llm, id: string, items: ReadonlyMap<string, SummarizeItem>, model: string,
  onOutcome: (item: SummarizeItem, outcome: Outcome) => Promise<void>,
): Promise<{ ok: number; failed: number; deferred: number }> {
  const counts = { ok: 0, failed: 0, deferred: 0 };
  const seen = new Set<string>();
  const record = async (item: SummarizeItem, outcome: Outcome) => {
    counts[outcome.kind]++;
    await onOutcome(item, outcome);
  };
  for await (const r of await llm.batchResults(id)) {
    const item = items.get(r.custom_id);
    if (!item || seen.has(r.custom_id)) continue;
    seen.add(r.custom_id);
    await record(item, await outcomeOf(llm, item, r, model));
  }
  for (const [key, item] of items) if (!seen.has(key)) await record(item, { kind: 'deferred', error: 'missing from the batch results' });
  return counts;
}

async function outcomeOf(llm: Llm, item: SummarizeItem, r: MessageBatchIndividualResponse, model: string): Promise<Outcome> {
  const res = r.result;
  if (res.type === 'succeeded') return summarizeOne(llm, item, model, { message: res.message, batch: true });
  if (res.type === 'errored') {
    const type = res.error.error.type;
    if (type === 'invalid_request_error') return { kind: 'failed', error: `rejected in batch: ${res.error.error.message}`, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, model };
    return { kind: 'deferred', error: `batch request errored: ${type}` };
  }
  return { kind: 'deferred', error: `batch request ${res.type}` };
}

/** Maps an SDK error from a batch step to the run's reaction (fatal ones are thrown). */
export function batchStepError(llm: Llm, err: unknown): string {
  if (llm.failureOf(err) === 'fatal') throw new FatalApiError(errorMessage(err));
  return errorMessage(err);
}
