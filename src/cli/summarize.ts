import { Option, type Command as Cli } from 'commander';
import { getSummary } from '../../db/queries/summaries.ts';
import type { JobDeps, JobOutcome, JobStats } from '../../jobs/index.ts';
import {
  runSummaries,
  summarizePendingJob,
  summaryLanguages,
  type SummarizeOptions,
} from '../../jobs/summarize-pending.ts';
import type { App } from '../app.ts';
import { UserFacingError } from '../core/errors.ts';
import { MAX_ATTEMPTS } from '../services/llm/backoff.ts';
import { LANGS, PROMPT_VERSION, type Lang } from '../services/summarize/schema.ts';
import type { SummarizeItem } from '../services/summarize/summarizer.ts';
import { basisOf, withFullText } from '../services/summarize/full-text.ts';
import { paperArg, print, printJson, runFromShell, withApp } from './shared.ts';

/** `grpo-digest summarize [--paper <ref>] [--lang en|zh] [--json]`: the summary run from the shell, under the job's lock. */
export function addSummarizeCommand(cli: Cli): void {
  cli
    .command('summarize')
    .description(
      'Summarise the pending GRPO-family papers now (the bot does this after each poll and on SUMMARIZE_CRON)',
    )
    .option(
      '--paper <ref>',
      'only this paper (arXiv id, URL or title), also one that failed for good or is not GRPO-family',
    )
    .addOption(
      new Option('--lang <lang>', 'only this language (default: the languages of the digest channels)').choices([
        ...LANGS,
      ]),
    )
    .option('--json', 'print the run as JSON')
    .action((o: { paper?: string; lang?: Lang; json?: boolean }) =>
      withApp(
        async (app) => {
          if (!app.deps.llm)
            throw new UserFacingError(
              'No ANTHROPIC_API_KEY is set, so nothing can be summarised; digests show labelled extractive summaries until it is.',
            );
          const langs = o.lang ? [o.lang] : await summaryLanguages(app.deps);
          const items = o.paper === undefined ? undefined : await paperItems(app, o.paper, langs);
          if (items?.length === 0)
            return print(
              `That paper is already summarised in ${langs.join(' and ')} (prompt ${PROMPT_VERSION}); nothing to do.`,
            );
          const outcome = await runFromShell(
            app.deps,
            { label: 'Summarising', json: o.json },
            ({ signal, onProgress }) => {
              const opts: SummarizeOptions = { langs, signal, onProgress, ...(items && { items }) };
              return { ...summarizePendingJob, run: (d: JobDeps) => runSummaries(d, opts) };
            },
          );
          if (o.json) return printJson(outcome);
          if (outcome.status !== 'ok') throw new UserFacingError(describeSummaryRun(outcome));
          print(describeSummaryRun(outcome));
        },
        { quiet: true },
      ),
    );
}

/** The paper's items in these languages, minus those already summarised (a failed one is tried again now, whatever its schedule). */
async function paperItems(app: App, ref: string, langs: readonly Lang[]): Promise<SummarizeItem[]> {
  const paper = await paperArg(app.deps.db, ref);
  if (!paper.abstract.trim())
    throw new UserFacingError(
      `${paper.arxivId ?? paper.title} has no abstract stored; a summary of its title alone would be invented.`,
    );
  const text = (await withFullText(app.deps.db, [paper])).get(paper.id)!;
  const items: SummarizeItem[] = [];
  for (const lang of langs) {
    const row = await getSummary(app.deps.db, paper.id, lang, PROMPT_VERSION);
    const upgrade = row?.status === 'ok' && row.basis === 'abstract' && basisOf(text) === 'full-text';
    if (row?.status !== 'ok' || upgrade)
      items.push({
        paper: text,
        lang,
        attempts: row?.status === 'failed' ? row.attempts : 0,
        ...(upgrade && { upgrade }),
      });
  }
  return items;
}

/** One summary run in plain words: what was done, what waits and why, and today's spend. */
export function describeSummaryRun(outcome: JobOutcome): string {
  if (outcome.status === 'skipped')
    return 'Summaries: skipped, another summary run is in progress (maybe the bot itself); try again when it finishes.';
  if (outcome.status === 'failed')
    return /^Summaries stopped/.test(outcome.error) ? outcome.error : `Summaries: the run failed: ${outcome.error}`;
  const s = outcome.stats;
  if (s.mode === 'fallback')
    return `Summaries: no ANTHROPIC_API_KEY, so none were written; ${String(s.pending)} of the ${String(s.familyTotal)} GRPO-family papers (those with an abstract) show labelled extractive summaries.`;
  const lines = [
    `Summaries (${String(s.languages)}, ${String(s.mode)}): ${String(s.ok)} ok, ${String(s.failed)} failed (each is tried again later, ${MAX_ATTEMPTS} attempts in all), ${String(s.deferred)} left pending, of the ${String(s.pending)} pending among the ${String(s.familyTotal)} GRPO-family papers.`,
  ];
  lines.push(...stopLines(s));
  lines.push(`LLM spend today (UTC): $${Number(s.spentTodayUsd).toFixed(4)} of $${Number(s.budgetUsd).toFixed(2)}.`);
  return lines.join('\n');
}

function stopLines(s: JobStats): string[] {
  const out: string[] = [];
  if (s.batchAbandoned)
    out.push(
      `An earlier batch could not be collected (${String(s.batchAbandoned)}); it was abandoned and its papers went back to pending.`,
    );
  if (s.mode === 'batch-waiting')
    out.push(
      `The batch ${String(s.batchId)} is still running at Anthropic; the next run collects it (nothing is submitted twice).`,
    );
  if (s.stopped === 'budget')
    out.push(
      `Today's budget (LLM_DAILY_BUDGET_USD) would be passed: ${String(s.overBudget)} papers wait for tomorrow.`,
    );
  if (s.stopped === 'api-unavailable')
    out.push(`The model API is unavailable (${String(s.stopReason)}); the rest stay pending for the next run.`);
  return out;
}
