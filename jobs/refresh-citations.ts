import { refreshCitations, type CitationStats, type RefreshOptions } from '../src/services/citations/refresh.ts';
import type { Assessment, Job, JobStats } from './index.ts';

/**
 * Once a day (S2_CRON, after the poll and the summaries): Semantic Scholar's citation counts for the
 * GRPO-family papers. Its own job, never a follow-up of the poll: whatever Semantic Scholar does
 * (429s, outages, slow answers) is this job's run, recorded with the reason, and the poll is untouched.
 */
export function refreshCitationsJob(opts: RefreshOptions = {}): Job {
  return {
    name: 'refresh-citations',
    lock: 'refresh-citations',
    schedule: (config) => config.semanticScholar.cron,
    run: (deps) => refreshCitations(deps, opts),
    assess: assessRefresh,
  };
}

/**
 * `failed` when it stopped before storing any count, `partial` when it stopped midway or every batch
 * answered 404 (nothing known: or S2_API_BASE points at the wrong place).
 */
export function assessRefresh(s: JobStats): Assessment | undefined {
  const stats = s as CitationStats;
  if (stats.stopped)
    return stats.found > 0
      ? { status: 'partial', error: `${stats.found} of ${stats.papers} papers refreshed; ${stats.stopped}` }
      : { status: 'failed', error: stats.stopped };
  if (stats.batches > 0 && stats.notFoundBatches === stats.batches)
    return {
      status: 'partial',
      error: `every batch answered 404: Semantic Scholar knows none of the ${stats.papers} papers (or S2_API_BASE is wrong)`,
    };
  return undefined;
}
