import type { Command as Cli } from 'commander';
import { diffNewVersions } from '../../jobs/diff-versions.ts';
import { assessFetch, fetchTexts } from '../../jobs/fetch-text.ts';
import type { JobOutcome } from '../../jobs/index.ts';
import { httpOptions } from '../../jobs/poll-feeds.ts';
import { UserFacingError } from '../core/errors.ts';
import { CommandFailed, paperArg, positiveInt, print, printJson, runFromShell, withApp } from './shared.ts';

/**
 * `grpo-digest fetch-text [--paper <ref>] [--limit n] [--json]`: reads GRPO-family papers' full texts
 * from arXiv's HTML now (the poll reads TEXT_FETCH_PER_POLL a day), under the poll's lock so it never
 * runs beside the bot's own arXiv requests; one request every 3 s. Then, as the poll does, new versions
 * whose text is settled are compared with the one before (jobs/diff-versions.ts).
 */
export function addFetchTextCommand(cli: Cli): void {
  cli
    .command('fetch-text')
    .description(
      "Read GRPO-family papers' full text from arXiv's HTML now, for their training settings (the poll reads a few a day)",
    )
    .option('--paper <ref>', 'only this paper (arXiv id, URL or title), read again even when stored')
    .option('--limit <n>', 'at most this many papers (1-5000)', positiveInt(5000), 5000)
    .option('--json', 'print the run as JSON')
    .action((o: { paper?: string; limit: number; json?: boolean }) =>
      withApp(
        async (app) => {
          const papers = o.paper === undefined ? undefined : [await arxivPaper(app.deps.db, o.paper)];
          const outcome = await runFromShell(
            app.deps,
            { label: 'Reading full texts', json: o.json },
            ({ signal, onProgress }) => ({
              // Never scheduled on its own: the poll reads TEXT_FETCH_PER_POLL texts itself.
              name: 'fetch-text',
              lock: 'poll',
              schedule: (c) => c.pollCron,
              assess: assessFetch,
              run: async (d) => {
                const { arxivHttp } = httpOptions(app.deps, signal);
                const texts = await fetchTexts(d, {
                  limit: o.limit,
                  arxivHttp,
                  onProgress,
                  ...(papers && { papers }),
                });
                return { ...texts, versions: await diffNewVersions(d, { arxivHttp }) };
              },
            }),
          );
          if (o.json) return printJson(outcome);
          if (outcome.status === 'skipped') throw new UserFacingError(describeFetch(outcome));
          if (outcome.status === 'failed') throw new CommandFailed(describeFetch(outcome));
          print(describeFetch(outcome));
        },
        { quiet: true },
      ),
    );
}

async function arxivPaper(db: Parameters<typeof paperArg>[0], ref: string) {
  const paper = await paperArg(db, ref);
  if (!paper.arxivId)
    throw new UserFacingError(`"${paper.title}" has no arXiv id yet, so arXiv has no HTML of it to read.`);
  return paper;
}

/** A fetch run in plain words. */
export function describeFetch(outcome: JobOutcome): string {
  if (outcome.status === 'skipped')
    return 'Full texts: skipped, a poll is reading arXiv right now (maybe the bot itself); try again when it finishes.';
  if (outcome.status === 'failed') return `Full texts: the run failed: ${outcome.error}`;
  const s = outcome.stats;
  const v = s.versions as { compared: number; meaningful: number; noticesPlanned: number } | undefined;
  const versions = v?.compared
    ? `New versions compared: ${String(v.compared)}, ${String(v.meaningful)} with a meaningful change (${String(v.noticesPlanned)} notes planned); /paper show says what changed.`
    : '';
  if (s.candidates === 0)
    return [
      "Full texts: every GRPO-family paper's current version is already read (or waits for its retry time); nothing to do.",
      versions,
    ]
      .filter(Boolean)
      .join('\n');
  return [
    `Full texts: ${String(s.ok)} read, ${String(s.noHtml)} without HTML on arXiv (they keep working from their abstract), ${String(s.failed)} failed (tried again on a later poll), of ${String(s.candidates)}.`,
    Number(s.ok) > 0
      ? 'Their settings show in /paper show; summaries made before the text are redone from it on the next summary run.'
      : '',
    versions,
  ]
    .filter(Boolean)
    .join('\n');
}
