import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Option, type Command as Cli } from 'commander';
import { UserFacingError } from '../core/errors.ts';
import type { SourceName } from '../core/papers/candidate.ts';
import { classifyJsonLine } from './classify.ts';
import {
  CommandFailed,
  databaseName,
  interruptible,
  isoDate,
  positiveInt,
  print,
  printJson,
  runFromShell,
  safeJson,
  withApp,
  writeLine,
} from './shared.ts';
import { afterPoll } from '../../jobs/graph.ts';
import { runChain, type Job, type JobDeps, type JobOutcome, type JobStats } from '../../jobs/index.ts';
import { judgeRelevanceJob } from '../../jobs/judge-relevance.ts';
import { WINDOW_DAYS } from '../services/outbox/notices.ts';
import { summarizePendingJob } from '../../jobs/summarize-pending.ts';
import { describeSummaryRun } from './summarize.ts';
import { assessPoll, httpOptions, pollFeeds, type FeedStats } from '../../jobs/poll-feeds.ts';
import { assessLookups, resolveTitles } from '../../jobs/resolve-titles.ts';
import { backfill } from '../../jobs/backfill.ts';

const SOURCES: SourceName[] = ['arxiv-rss', 'arxiv-api', 'hf-daily'];

/** The relevance judge's pass after a poll, in plain words. */
function describeJudgeRun(o: JobOutcome, keyed: boolean): string {
  if (o.status !== 'ok')
    return `Relevance judge: ${o.status === 'failed' ? `failed: ${o.error}` : 'skipped (another run holds its lock)'}`;
  if (!keyed) return 'Relevance judge: no ANTHROPIC_API_KEY, so the key-less filter decides alone.';
  const s = o.stats;
  const stop = s.stopped ? ` It stopped: ${String(s.stopReason ?? s.stopped)}.` : '';
  return `Relevance judge: ${String(s.candidates)} papers the filter was unsure about: ${String(s.in)} in, ${String(s.out)} out, ${String(s.failed)} failed, ${String(s.deferred)} left for the next run.${stop}`;
}

function report(
  outcome: JobOutcome,
  json: boolean | undefined,
  followUps?: { job: string; outcome: JobOutcome }[],
  keyed = false,
): void {
  if (json) {
    printJson(followUps ? { ...outcome, followUps } : outcome);
    if (outcome.status === 'failed') throw failure(outcome);
    return;
  }
  if (outcome.status === 'skipped')
    throw new UserFacingError(
      'Another poll or backfill is running (maybe the bot itself); try again when it finishes.',
    );
  if (outcome.stats) printFeeds(outcome.stats);
  if (followUps) {
    for (const f of followUps) {
      if (f.job === summarizePendingJob.name) print(describeSummaryRun(f.outcome));
      else if (f.job === judgeRelevanceJob.name) print(describeJudgeRun(f.outcome, keyed));
      else print(`${f.job}: ${f.outcome.status}`);
    }
    print(
      `Subscribers: not notified from the shell (that needs the bot's Discord connection); the bot announces these papers on its next run (they stay candidates for ${WINDOW_DAYS} days).`,
    );
  }
  if (outcome.status === 'failed') throw failure(outcome);
}

/** One line per feed, then the totals. */
function printFeeds(stats: JobStats): void {
  const { feeds, ...totals } = stats as { feeds?: Record<string, FeedStats> };
  for (const [name, f] of Object.entries(feeds ?? {})) {
    const health = f.health === 'ok' ? '' : `  [${f.health}]`;
    print(
      f.status === 'failed'
        ? `${name}: FAILED (${f.error ?? 'see the log'}; ${keptBefore(f)})`
        : `${name}: ${f.fetched} fetched, ${f.new} new, ${f.updated} updated, ${f.family} GRPO-family, ${f.skipped} skipped${health}`,
    );
  }
  print(
    `total: ${Object.entries(totals)
      .map(([k, v]) => `${k} ${String(v)}`)
      .join(', ')}`,
  );
}

/** What a failed feed kept: its pages before the failure are stored, and the next run resumes after them. */
function keptBefore(f: FeedStats): string {
  return f.fetched === 0
    ? 'nothing stored, the next run retries'
    : `${f.fetched} items from the pages before it stored (${f.new} new), the next run resumes after them`;
}

/** The end of a failed run's message: what its feeds stored before failing (they store page by page). */
function storedBefore(stats: JobStats): string {
  const fetched = Number(stats.fetched ?? 0);
  return fetched === 0
    ? 'Nothing was stored; /status says why, and the next poll retries.'
    : `The pages read before each failure were stored (${fetched} items); /status says why, and the next poll resumes after them.`;
}

function failure(outcome: Extract<JobOutcome, { status: 'failed' }>): CommandFailed {
  return new CommandFailed(
    outcome.databaseUnavailable
      ? `lost the database, ${databaseName()}: ${outcome.error}. Check that it runs and try again.`
      : outcome.stats
        ? `${outcome.error}. ${storedBefore(outcome.stats)}`
        : outcome.error,
  );
}

/** `poll`, `backfill` and `classify`: the feed side of the CLI. */
export function addFeedCommands(cli: Cli): void {
  cli
    .command('poll')
    .description(
      'Poll the feeds once now, then judge and summarise what is new, as the bot does after its polls (POLL_CRON)',
    )
    .addOption(new Option('--source <source...>', 'only these sources').choices(SOURCES))
    .option('--date <YYYY-MM-DD>', 'poll one past day (arXiv API and Hugging Face; RSS only serves today)', isoDate)
    .option('--no-follow-ups', 'only poll: leave judging and summaries to the bot or `grpo-digest summarize`')
    .option('--json', 'print the run (and its follow-ups) as JSON')
    .action((o: { source?: SourceName[]; date?: string; followUps: boolean; json?: boolean }) => {
      if (o.date && o.source?.length === 1 && o.source[0] === 'arxiv-rss') {
        throw new UserFacingError(
          "arXiv RSS only serves today's batch; for a past day use --source arxiv-api or hf-daily, or backfill.",
        );
      }
      return withApp(
        async (app) => {
          const today = app.deps.now().toISOString().slice(0, 10);
          if (o.date && o.date > today)
            throw new UserFacingError(
              `--date ${o.date} is after today (${today}, UTC): arXiv has announced nothing then.`,
            );
          const stop = interruptible();
          const job: Job = {
            name: 'poll-feeds',
            lock: 'poll',
            schedule: app.config.pollCron,
            run: (d: JobDeps) => pollFeeds(d, { sources: o.source, date: o.date, signal: stop.signal }),
            assess: assessPoll,
            ...(o.followUps && { then: afterPoll() }),
          };
          const [first, ...followUps] = await runChain(job, app.deps).finally(stop.done);
          report(first!.outcome, o.json, o.followUps ? followUps : undefined, Boolean(app.deps.llm));
        },
        { quiet: true },
      );
    });

  cli
    .command('backfill')
    .description('Store GRPO-family papers submitted between two dates from the arXiv API (not announced)')
    .requiredOption('--from <YYYY-MM-DD>', 'first submission day (UTC)', isoDate)
    .requiredOption('--to <YYYY-MM-DD>', 'last submission day (UTC)', isoDate)
    .option(
      '--query <arxiv-query>',
      'an arXiv search_query used instead of the family terms, e.g. \'abs:"policy optimization"\'',
    )
    .option('--json', 'print the run as JSON')
    .action((o: { from: string; to: string; query?: string; json?: boolean }) => {
      if (o.from > o.to) throw new UserFacingError(`--from ${o.from} is after --to ${o.to}.`);
      return withApp(
        async (app) => {
          const outcome = await runFromShell(
            app.deps,
            { label: 'Backfilling from the arXiv API', json: o.json },
            ({ signal, onProgress }) => ({
              name: 'backfill',
              lock: 'poll',
              schedule: app.config.pollCron,
              run: (d: JobDeps) => backfill(d, { ...o, signal, onProgress }),
            }),
          );
          report(outcome, o.json);
        },
        { quiet: true },
      );
    });

  cli
    .command('resolve-titles')
    .description('Look up the arXiv ids of papers known only by title (the poll does a few a day)')
    .option('--limit <n>', 'at most this many lookups, 3 s apart', positiveInt(10_000), 200)
    .option('--json', 'print the run as JSON')
    .action((o: { limit: number; json?: boolean }) =>
      withApp(
        async (app) => {
          const outcome = await runFromShell(
            app.deps,
            { label: 'Looking up titles on arXiv', json: o.json },
            ({ signal, onProgress }) => ({
              name: 'resolve-titles',
              lock: 'poll',
              schedule: app.config.pollCron,
              run: (d: JobDeps) =>
                resolveTitles(d, { limit: o.limit, arxivHttp: httpOptions(d, signal).arxivHttp, onProgress }),
              assess: assessLookups,
            }),
          );
          if (o.json) return printJson(outcome);
          if (outcome.status === 'failed' && !outcome.stats) return report(outcome, false);
          if (outcome.status === 'skipped') return report(outcome, false);
          print(
            `Looked up ${String(outcome.stats!.looked)} titles: ${String(outcome.stats!.resolved)} resolved, ${String(outcome.stats!.failed)} failed (tried again next time).`,
          );
          if (outcome.status === 'failed') throw new CommandFailed(outcome.error);
        },
        { quiet: true },
      ),
    );

  cli
    .command('classify')
    .description('Classify papers from JSON lines ({"title","abstract","id"?}) and print one JSON line each')
    .requiredOption('--input <file>', 'a .jsonl file, or - for stdin')
    .action(async (o: { input: string }) => {
      const input = o.input === '-' ? process.stdin : createReadStream(o.input);
      const opened = new Promise<void>((resolve, reject) => {
        if (input === process.stdin) resolve();
        input
          .once('open', () => resolve())
          .once('error', (e: Error) => reject(new UserFacingError(`Cannot read ${o.input}: ${e.message}`)));
      });
      await opened;
      let bad = 0;
      let lineNo = 0;
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        lineNo++;
        if (!line.trim()) continue;
        const out = classifyJsonLine(line, lineNo);
        if ('error' in out) {
          bad++;
          process.stderr.write(`grpo-digest: line ${lineNo}: ${out.error}\n`);
        } else writeLine(safeJson(out));
      }
      if (bad > 0)
        throw new UserFacingError(
          `${bad} line${bad === 1 ? '' : 's'} could not be classified (see above); the others were.`,
        );
    });
}
