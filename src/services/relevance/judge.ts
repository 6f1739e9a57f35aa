/**
 * The relevance judge: when an API key is set, papers the key-less filter is unsure about (a score
 * between GREY.min and GREY.max) are read by the model with the product's rule as the instruction
 * (src/core/relevance/prompt.ts). Its decision and reason are stored per paper and judge version and win
 * over the filter (a moderator's mark wins over both). The judge never holds anything back: until it
 * has decided, the filter's verdict is what digests and subscriptions read.
 *
 * The calls go through the shared LLM plumbing (src/services/llm): one structured call with its answer retry,
 * each attempt reserved against the daily budget and priced into the spend ledger, and the run guard,
 * so an outage leaves papers for the next run and a problem every request shares (the key, the model,
 * one 400 repeated) stops the pass without recording any paper as failed.
 */
import { judgeCandidates, saveJudgement } from '../../../db/queries/judgements.ts';
import type { Paper } from '../../../db/schema.ts';
import type { AppDeps } from '../../core/deps.ts';
import { Budget } from '../llm/budget.ts';
import type { Llm, LlmFailure } from '../../core/llm/port.ts';
import { round6, type TokenUsage } from '../llm/pricing.ts';
import { runItems, type RunCounts } from '../llm/run.ts';
import { callStructured, issuesText } from '../llm/structured.ts';
import { JUDGE_VERSION, judgeAnswer, judgeRequest, type JudgeAnswer } from '../../core/relevance/prompt.ts';

/**
 * Scores the judge reads: outside this band the filter is confident enough on its own. Chosen by
 * bench/train-classifier.ts from out-of-sample scores on the dev days (2026-11-28): the cheapest band that holds
 * as many of the filter's errors as any band can (92%; the rest score near 0, where every paper of the day
 * sits), about 70 papers a day. A paper with no RL evidence scores 0.001 and is never sent.
 */
export const GREY = { min: 0.01, max: 0.998 } as const;
/** Papers first seen this recently are judged (older ones were decided when they were news). */
const RECENT_DAYS = 7;
/** At most this many papers per run; a larger backlog continues on the next run. */
const MAX_PER_RUN = 300;

export type JudgeDeps = Pick<AppDeps, 'db' | 'config' | 'log' | 'now' | 'llm'>;

type Outcome = { usage: TokenUsage; costUsd: number } & (
  | { kind: 'ok'; answer: JudgeAnswer }
  | { kind: 'failed'; error: string; failure?: LlmFailure }
  | { kind: 'deferred'; error: string; failure?: LlmFailure; overBudget?: boolean }
);

export interface JudgeStats {
  [key: string]: number | string | boolean | null;
  judgeVersion: string;
  candidates: number;
  in: number;
  out: number;
  failed: number;
  deferred: number;
  overBudget: number;
  stopped: RunCounts['stopped'];
  stopReason: string | null;
  costUsd: number;
}

export async function judgePending(deps: JudgeDeps): Promise<JudgeStats> {
  const stats: JudgeStats = {
    judgeVersion: JUDGE_VERSION,
    candidates: 0,
    in: 0,
    out: 0,
    failed: 0,
    deferred: 0,
    overBudget: 0,
    stopped: null,
    stopReason: null,
    costUsd: 0,
  };
  const { llm } = deps;
  if (!llm) return stats;
  const now = deps.now();
  const papers = await judgeCandidates(deps.db, {
    since: new Date(now.getTime() - RECENT_DAYS * 86_400_000),
    judgeVersion: JUDGE_VERSION,
    min: GREY.min,
    max: GREY.max,
    limit: MAX_PER_RUN,
  });
  stats.candidates = papers.length;
  const budget = await Budget.open(deps, deps.config.llm.dailyBudgetUsd);
  const run = await runItems(papers, {
    concurrency: deps.config.llm.concurrency,
    work: (paper) => judgeOne(llm, paper, budget),
    store: async (paper, o) => {
      stats.costUsd += o.costUsd;
      await store(deps, llm.model, paper, o);
      if (o.kind === 'ok') stats[o.answer.in_family ? 'in' : 'out']++;
    },
    asRun: (o) => (o.kind === 'failed' ? { ...o, kind: 'deferred' } : o),
  });
  Object.assign(stats, {
    failed: run.failed,
    deferred: run.deferred,
    overBudget: run.overBudget,
    stopped: run.stopped,
    stopReason: run.stopReason,
  });
  if (run.stopped === 'config' || run.stopped === 'systematic') {
    deps.log.error(
      { reason: run.stopReason },
      'relevance judge stopped: the API refuses every call (key, model or request); no paper was recorded as failed',
    );
  }
  stats.costUsd = round6(stats.costUsd);
  return stats;
}

/** One paper: a usable decision, a failure for this paper alone, or a reason to wait (an outage, the budget). */
async function judgeOne(llm: Llm, paper: Paper, budget: Budget): Promise<Outcome> {
  const r = await callStructured(llm, judgeRequest(paper, llm.model), {
    budget,
    read: (json) => {
      const parsed = judgeAnswer.safeParse(json);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, error: `schema mismatch: ${issuesText(parsed.error.issues)}` };
    },
  });
  const base = { usage: r.usage, costUsd: r.costUsd };
  if (r.ok) return { ...base, kind: 'ok', answer: r.value };
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

/** Stores decisions (the cost is in the day's ledger already, settled call by call) and the paper's own failures (a deferral stores nothing). */
async function store(deps: JudgeDeps, model: string, paper: Paper, o: Outcome): Promise<void> {
  if (o.kind === 'deferred') return;
  await saveJudgement(deps.db, {
    paperId: paper.id,
    judgeVersion: JUDGE_VERSION,
    status: o.kind,
    model,
    createdAt: deps.now(),
    ...(o.kind === 'ok'
      ? { inFamily: o.answer.in_family, reason: o.answer.reason, families: o.answer.families }
      : { error: o.error }),
    inputTokens: o.usage.input,
    outputTokens: o.usage.output,
    cacheReadTokens: o.usage.cacheRead,
    cacheWriteTokens: o.usage.cacheWrite,
    costUsd: o.costUsd.toFixed(6),
  });
}
