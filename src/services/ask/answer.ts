import type { CommandDeps } from '../../core/command.ts';
import type { Paper } from '../../../db/schema.ts';
import { Budget } from '../llm/budget.ts';
import { askModel } from './model.ts';
import type { AskResult as CoreAskResult, RetrievedPaper as CoreRetrievedPaper } from '../../core/ask/result.ts';
import { summariesToShow } from '../summarize/show.ts';
import { retrievePapers, type RetrieveOptions } from './retrieve.ts';
import type { Correction } from '../../core/ranking/typo.ts';

/** Papers retrieved per question: enough to compare methods, few enough to keep the prompt small. */
export const ASK_K = 8;

export interface AskRequest {
  question: string;
  since?: string;
  topic?: string;
}

/** A retrieved stored paper and what /ask made of the question (the shapes are core's, over the stored row). */
export type RetrievedPaper = CoreRetrievedPaper<Paper>;
export type AskResult = CoreAskResult<Paper>;

/**
 * The retrieved papers with their reference numbers and the summary shown for each, and the words of
 * the question searched as others (misspellings).
 */
export async function retrieveSources(
  deps: Pick<CommandDeps, 'db'>,
  r: AskRequest,
  o: Partial<RetrieveOptions> = {},
): Promise<{ sources: RetrievedPaper[]; corrections: Correction[] }> {
  const { papers: found, corrections } = await retrievePapers(deps.db, r.question, {
    k: ASK_K,
    ...(r.since && { since: r.since }),
    ...(r.topic && { topic: r.topic }),
    ...o,
  });
  const shown = await summariesToShow(deps.db, found, 'en');
  const sources = found.map((paper, i) => ({
    paper,
    source: {
      n: i + 1,
      arxivId: paper.arxivId,
      title: paper.title,
      publishedOn: paper.publishedOn,
      families: paper.families,
      abstract: paper.abstract,
      tldr: shown.get(paper.id)?.tldr ?? null,
    },
  }));
  return { sources, corrections };
}

/**
 * Answers a question from the stored papers only: retrieval, then (with an API key and room in
 * today's budget) one model call, retried once when the answer is malformed or cites a paper it was
 * not given, all within ASK_TIMEOUT_MS. What the calls cost goes to the spend ledger, so the daily
 * budget and /status include it. A failure says why (`reason`), for the user.
 */
export async function answerQuestion(
  deps: Pick<CommandDeps, 'db' | 'config' | 'now' | 'log' | 'llm'>,
  r: AskRequest,
): Promise<AskResult> {
  const { sources: papers, corrections } = await retrieveSources(deps, r);
  const base = { question: r.question, papers, corrections, costUsd: 0, model: null };
  if (papers.length === 0) return { ...base, kind: 'no-papers' };
  const { llm } = deps;
  if (!llm) return { ...base, kind: 'no-key' };
  const budget = await Budget.open(deps, deps.config.llm.dailyBudgetUsd);
  const outcome = await askModel(
    llm,
    r.question,
    papers.map((p) => p.source),
    { budget, deadlineMs: deps.config.ask.timeoutMs },
  );
  const done = { ...base, costUsd: outcome.costUsd, model: llm.model };
  if (outcome.kind === 'failed') {
    if (outcome.reason === 'over-budget') return { ...done, kind: 'over-budget' };
    deps.log.warn({ reason: outcome.reason, error: outcome.error }, 'ask: no answer');
    return { ...done, kind: 'failed', reason: outcome.reason, error: outcome.error };
  }
  if (!outcome.answer.answerable) return { ...done, kind: 'not-answerable' };
  return { ...done, kind: 'answered', answer: outcome.answer.answer, citations: outcome.answer.citations };
}
