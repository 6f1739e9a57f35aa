/**
 * The relevance judge: when an API key is set, papers the key-less filter is unsure about (a score
 * between GREY.min and GREY.max) are read by the model with the product's rule as the instruction
 * (src/relevance/prompt.ts). Its decision and reason are stored per paper and judge version and win
 * over the filter (a moderator's mark wins over both). The judge never holds anything back: until it
 * has decided, the filter's verdict is what digests and subscriptions read.
 */
import { judgeCandidates, saveJudgement } from '../../db/queries/judgements.ts';
import { spendToday } from '../../db/queries/summaries.ts';
import type { Paper } from '../../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import { errorMessage, type Llm, type Message } from '../llm/port.ts';
import { usageOf } from '../summarize/answer.ts';
import { Budget } from '../summarize/budget.ts';
import { costUsd, estimateCostUsd, type TokenUsage } from '../summarize/pricing.ts';
import { JUDGE_MAX_TOKENS, JUDGE_SYSTEM_PROMPT, JUDGE_VERSION, judgeAnswer, judgeRequest, judgeUserPrompt, type JudgeAnswer } from './prompt.ts';

/** Scores the judge reads: outside this band the filter is confident enough on its own. */
export const GREY = { min: 0.1, max: 0.9 } as const;
/** Papers first seen this recently are judged (older ones were decided when they were news). */
const RECENT_DAYS = 7;
/** At most this many papers per run; a larger backlog continues on the next run. */
const MAX_PER_RUN = 300;

export type JudgeDeps = Pick<AppDeps, 'db' | 'config' | 'log' | 'now' | 'llm'>;

type Outcome =
  | { kind: 'ok'; answer: JudgeAnswer; usage: TokenUsage; costUsd: number }
  | { kind: 'failed'; error: string; usage: TokenUsage; costUsd: number }
  | { kind: 'deferred'; error: string }
  | { kind: 'fatal'; error: string };

export interface JudgeStats {
  [key: string]: number | string | boolean | null;
  judgeVersion: string;
  candidates: number;
  in: number;
  out: number;
  failed: number;
  deferred: number;
  overBudget: number;
  stopped: 'budget' | 'api-unavailable' | 'fatal' | null;
  costUsd: number;
}

/** Consecutive deferrals after which the API is taken to be down for this run. */
const UNAVAILABLE_AFTER = 3;

export async function judgePending(deps: JudgeDeps): Promise<JudgeStats> {
  const stats: JudgeStats = { judgeVersion: JUDGE_VERSION, candidates: 0, in: 0, out: 0, failed: 0, deferred: 0, overBudget: 0, stopped: null, costUsd: 0 };
  const { llm } = deps;
  if (!llm) return stats;
  const now = deps.now();
  const papers = await judgeCandidates(deps.db, {
    since: new Date(now.getTime() - RECENT_DAYS * 86_400_000), judgeVersion: JUDGE_VERSION, min: GREY.min, max: GREY.max, limit: MAX_PER_RUN,
  });
  stats.candidates = papers.length;
  const budget = new Budget(deps.config.llm.dailyBudgetUsd, await spendToday(deps.db, now));
  let next = 0;
  let deferredInARow = 0;
  const worker = async () => {
    while (next < papers.length && !stats.stopped) {
      const paper = papers[next++]!;
      const estimate = estimateCostUsd(llm.model, JUDGE_SYSTEM_PROMPT.length + judgeUserPrompt(paper).length, JUDGE_MAX_TOKENS);
      if (!budget.tryReserve(estimate)) {
        stats.stopped = 'budget';
        stats.overBudget = papers.length - stats.in - stats.out - stats.failed - stats.deferred;
        break;
      }
      const outcome = await judgeOne(llm, paper);
      budget.settle(estimate, 'costUsd' in outcome ? outcome.costUsd : 0);
      deferredInARow = outcome.kind === 'deferred' ? deferredInARow + 1 : 0;
      if (outcome.kind === 'fatal') {
        stats.stopped = 'fatal';
        deps.log.error({ error: outcome.error }, 'relevance judge stopped: the API refuses every call (key, model or permission)');
        break;
      }
      if (outcome.kind === 'deferred') {
        stats.deferred++;
        if (deferredInARow >= UNAVAILABLE_AFTER) stats.stopped = 'api-unavailable';
        continue;
      }
      stats.costUsd += outcome.costUsd;
      if (outcome.kind === 'ok') stats[outcome.answer.in_family ? 'in' : 'out']++;
      else stats.failed++;
      await saveJudgement(deps.db, {
        paperId: paper.id, judgeVersion: JUDGE_VERSION, status: outcome.kind, model: llm.model, createdAt: deps.now(),
        ...(outcome.kind === 'ok'
          ? { inFamily: outcome.answer.in_family, reason: outcome.answer.reason, families: outcome.answer.families }
          : { error: outcome.error }),
        inputTokens: outcome.usage.input, outputTokens: outcome.usage.output, cacheReadTokens: outcome.usage.cacheRead,
        cacheWriteTokens: outcome.usage.cacheWrite, costUsd: outcome.costUsd.toFixed(6),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.config.llm.concurrency, papers.length)) }, worker));
  stats.costUsd = Math.round(stats.costUsd * 1e6) / 1e6;
  return stats;
}

/** One paper, one call: a usable decision, a failure for this paper alone, or a reason to stop or wait. */
async function judgeOne(llm: Llm, paper: Paper): Promise<Outcome> {
  let message: Message;
  try {
    message = await llm.create(judgeRequest(paper, llm.model));
  } catch (err) {
    const kind = llm.failureOf(err);
    if (kind === 'fatal') return { kind: 'fatal', error: errorMessage(err) };
    if (kind === 'paper') return { kind: 'failed', error: `rejected: ${errorMessage(err)}`, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0 };
    return { kind: 'deferred', error: errorMessage(err) };
  }
  const usage = usageOf(message);
  const cost = costUsd(llm.model, usage);
  if (message.stop_reason === 'refusal' || message.stop_reason === 'max_tokens') return { kind: 'failed', error: `stopped: ${message.stop_reason}`, usage, costUsd: cost };
  const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    return { kind: 'failed', error: `invalid JSON: ${text.slice(0, 80)}`, usage, costUsd: cost };
  }
  const parsed = judgeAnswer.safeParse(json);
  if (!parsed.success) return { kind: 'failed', error: `schema mismatch: ${parsed.error.issues[0]?.message ?? ''}`, usage, costUsd: cost };
  return { kind: 'ok', answer: parsed.data, usage, costUsd: cost };
}
