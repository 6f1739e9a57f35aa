import { papersInOrder } from '../../../db/queries/papers.ts';
import { getPendingBatch, setPendingBatch, summarizedSince, type PendingBatch } from '../../../db/queries/summaries.ts';
import type { AppDeps } from '../../core/deps.ts';
import { BATCH_HOLD_MS, type Budget } from '../llm/budget.ts';
import { failureOf, type Llm } from '../../core/llm/port.ts';
import { estimateRequestUsd } from '../llm/pricing.ts';
import { collectBatch, customId, submitBatch, waitForBatch, type WaitOptions } from './batch.ts';
import { withFullText } from './full-text.ts';
import { summaryRequest } from './prompt.ts';
import { isLang, PROMPT_VERSION } from './schema.ts';
import type { Outcome, RunStats, SummarizeItem } from './summarizer.ts';

type Deps = Pick<AppDeps, 'db' | 'log' | 'now' | 'config'>;
type Store = (item: SummarizeItem, o: Outcome) => Promise<void>;
type Wait = Omit<WaitOptions, 'pollMs' | 'maxWaitMs'>;

/**
 * A batch's fate in this run: `collected` (its outcomes stored), `waiting` (still running, or the API
 * could not be reached: the next run tries again), `abandoned` (it can no longer be collected: its
 * papers stay pending for this run to go on with), or `stopped` (the API refuses us: an operator must act).
 */
export type BatchStep =
  | { state: 'collected'; stats: RunStats }
  | { state: 'waiting' }
  | { state: 'abandoned'; reason: string }
  | { state: 'stopped'; reason: string };

/** Collects the batch an earlier run left, if any (undefined when there is none). */
export async function resumeBatch(
  deps: Deps,
  llm: Llm,
  budget: Budget,
  store: Store,
  wait: Wait,
): Promise<BatchStep | undefined> {
  const earlier = await getPendingBatch(deps.db);
  return earlier && finishBatch(deps, llm, earlier, budget, store, wait);
}

/**
 * Submits the affordable items as one batch (each reserved at batch price, in order, until the budget
 * is used), remembers it, and waits for it as long as LLM_BATCH_MAX_WAIT_MS allows. Returns the step
 * and how many items the budget left out.
 */
export async function runBatch(
  deps: Deps,
  llm: Llm,
  items: readonly SummarizeItem[],
  budget: Budget,
  store: Store,
  wait: Wait,
): Promise<{
  step: BatchStep | { state: 'not-submitted'; reason: string };
  id?: string;
  overBudget: number;
  affordable: number;
}> {
  const model = llm.model;
  // One reservation for the whole batch, held until it is collected (maybe by a later run) or abandoned.
  const reserved = await budget.tryReserveEach(
    items.map((i) => estimateRequestUsd(summaryRequest(i.paper, i.lang, model), { batch: true })),
    BATCH_HOLD_MS,
  );
  const affordable = items.filter((_, n) => reserved[n]);
  const reservation = reserved.find((r) => r)?.key ?? null;
  const overBudget = items.length - affordable.length;
  if (affordable.length === 0) return { step: { state: 'not-submitted', reason: 'budget' }, overBudget, affordable: 0 };
  let id: string;
  try {
    id = await submitBatch(llm, affordable, model);
  } catch (err) {
    await budget.release(reservation);
    const failure = failureOf(err);
    if (!failure) throw err;
    if (failure.kind === 'config')
      return { step: { state: 'stopped', reason: failure.message }, overBudget, affordable: affordable.length };
    deps.log.warn({ err: failure.message }, 'batch not submitted; the next run tries again');
    return { step: { state: 'not-submitted', reason: failure.message }, overBudget, affordable: affordable.length };
  }
  const pending: PendingBatch = {
    id,
    model,
    createdAt: deps.now().toISOString(),
    reservation,
    items: affordable.map((i) => ({
      customId: customId({ paperId: i.paper.id, lang: i.lang }),
      paperId: i.paper.id,
      lang: i.lang,
      attempts: i.attempts,
      ...(i.upgrade && { upgrade: true }),
    })),
  };
  await setPendingBatch(deps.db, pending, deps.now());
  deps.log.info({ batch: id, papers: affordable.length }, 'summary batch submitted');
  return {
    step: await finishBatch(deps, llm, pending, budget, store, wait),
    id,
    overBudget,
    affordable: affordable.length,
  };
}

/** Waits for a batch and stores its outcomes; forgets it once collected or abandoned. */
async function finishBatch(
  deps: Deps,
  llm: Llm,
  b: PendingBatch,
  budget: Budget,
  store: Store,
  wait: Wait,
): Promise<BatchStep> {
  const { batchPollMs: pollMs, batchMaxWaitMs: maxWaitMs } = deps.config.llm;
  const log = deps.log.child({ batch: b.id });
  try {
    const where = await waitForBatch(llm, b.id, { pollMs, maxWaitMs, ...wait });
    if (where.state === 'running') {
      log.info('summary batch still running; the next run collects it');
      return { state: 'waiting' };
    }
    if (where.state === 'lost') return abandon(deps, b, budget, where.reason);
    const stats = await collectBatch(
      llm,
      b.id,
      await batchItems(deps, b),
      { model: b.model, budget, reservation: b.reservation ?? null },
      store,
    );
    // Each item took its estimate off the reservation as it settled; what is left (items gone, estimates above cost) ends here.
    await budget.release(b.reservation);
    await setPendingBatch(deps.db, null, deps.now());
    return { state: 'collected', stats };
  } catch (err) {
    const failure = failureOf(err);
    if (!failure) throw err;
    if (failure.kind === 'gone') return abandon(deps, b, budget, `its results are gone (${failure.message})`);
    if (failure.kind === 'config') return { state: 'stopped', reason: failure.message };
    log.warn({ err: failure.message }, 'summary batch not collected; the next run tries again');
    return { state: 'waiting' };
  }
}

async function abandon(deps: Deps, b: PendingBatch, budget: Budget, reason: string): Promise<BatchStep> {
  await budget.release(b.reservation);
  await setPendingBatch(deps.db, null, deps.now());
  deps.log.warn({ batch: b.id, papers: b.items.length, reason }, 'summary batch abandoned; its papers stay pending');
  return { state: 'abandoned', reason };
}

/** The batch's items still to store: papers that still exist, minus those an earlier, interrupted read of this batch already stored. */
async function batchItems(deps: Deps, b: PendingBatch): Promise<Map<string, SummarizeItem>> {
  const ids = b.items.map((i) => i.paperId);
  const byId = await withFullText(deps.db, await papersInOrder(deps.db, ids));
  const done = await summarizedSince(deps.db, ids, PROMPT_VERSION, new Date(b.createdAt));
  const items = new Map<string, SummarizeItem>();
  for (const i of b.items) {
    const paper = byId.get(i.paperId);
    if (paper && isLang(i.lang) && !done.has(`${i.paperId}-${i.lang}`))
      items.set(i.customId, { paper, lang: i.lang, attempts: i.attempts ?? 0, ...(i.upgrade && { upgrade: true }) });
  }
  return items;
}
