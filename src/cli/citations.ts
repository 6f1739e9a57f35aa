import type { Command as Cli } from 'commander';
import { refreshCitationsJob } from '../../jobs/refresh-citations.ts';
import type { JobOutcome } from '../../jobs/index.ts';
import { UserFacingError } from '../core/errors.ts';
import { CommandFailed, print, printJson, runFromShell, withApp } from './shared.ts';

/**
 * `grpo-digest citations [--json]`: refreshes Semantic Scholar's citation counts now (the bot does it
 * daily on S2_CRON), under the job's own lock, paced as the job is (1.1 s apart with S2_API_KEY,
 * 3.5 s without).
 */
export function addCitationsCommand(cli: Cli): void {
  cli
    .command('citations')
    .description("Refresh the GRPO-family papers' citation counts from Semantic Scholar now (the bot does it daily)")
    .option('--json', 'print the run as JSON')
    .action((o: { json?: boolean }) =>
      withApp(
        async (app) => {
          const outcome = await runFromShell(
            app.deps,
            { label: 'Refreshing citation counts', json: o.json },
            ({ signal }) => refreshCitationsJob({ signal }),
          );
          if (o.json) return printJson(outcome);
          if (outcome.status === 'skipped') throw new UserFacingError(describeRefresh(outcome));
          if (outcome.status === 'failed') throw new CommandFailed(describeRefresh(outcome));
          print(describeRefresh(outcome));
        },
        { quiet: true },
      ),
    );
}

/** A refresh in plain words. */
export function describeRefresh(outcome: JobOutcome): string {
  if (outcome.status === 'skipped') return 'Citations: skipped, a refresh is running right now (maybe the bot itself).';
  if (outcome.status === 'failed') return `Citations: the refresh stored nothing: ${outcome.error}`;
  const s = outcome.stats;
  if (s.papers === 0) return 'Citations: no GRPO-family paper with an arXiv id to ask about.';
  return [
    `Citations: ${String(s.found)} of ${String(s.papers)} papers have fresh counts, ${String(s.unknown)} unknown to Semantic Scholar, in ${String(s.requests)} request(s)${Number(s.rateLimited) ? `, ${String(s.rateLimited)} answered 429` : ''}.`,
    outcome.partial ? `Stopped early: ${outcome.partial}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
