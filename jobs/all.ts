import type { Job } from './index.ts';
import { pollFeedsJob, pollHfJob } from './poll-feeds.ts';
import { summarizePendingJob } from './summarize-pending.ts';

/** Every scheduled job, in the order the scheduler registers them. */
export const JOBS: readonly Job[] = [pollFeedsJob, pollHfJob, summarizePendingJob];
