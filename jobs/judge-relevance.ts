import { judgePending } from '../src/services/relevance/judge.ts';
import type { Job } from './index.ts';

/**
 * The relevance judge after every poll (jobs/graph.ts chains it before the summaries, so papers it
 * lets in get summaries too). Without an API key it does nothing. It never throws for an API
 * failure, so the summaries and notifications that follow still run.
 */
export const judgeRelevanceJob: Job = {
  name: 'judge-relevance',
  lock: 'judge-relevance',
  schedule: (config) => config.summarizeCron,
  run: (deps) => judgePending(deps),
};
