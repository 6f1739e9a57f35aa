import type { Notifier } from '../src/core/delivery/notifier.ts';
import type { Poster } from '../src/core/delivery/poster.ts';
import type { Job } from './index.ts';
import { judgeRelevanceJob } from './judge-relevance.ts';
import { notifySubscribersJob } from './notify-subscribers.ts';
import { pollFeedsJob, pollHfJob } from './poll-feeds.ts';
import { postDigestsJob } from './post-digests.ts';
import { refreshCitationsJob } from './refresh-citations.ts';
import { summarizePendingJob } from './summarize-pending.ts';

/** What some jobs need from the platform; without them those jobs are left out (the console has neither). */
export interface JobPorts {
  poster?: Poster;
  notifier?: Notifier;
}

/**
 * Every scheduled job and how they chain, in one place:
 *
 *   poll-feeds (POLL_CRON) ──┐
 *   poll-hf (HF_POLL_CRON) ──┴──> judge-relevance ──> summarize-pending ──> notify-subscribers   (needs a notifier)
 *   summarize-pending (SUMMARIZE_CRON) ──> notify-subscribers
 *   post-digests (every 5 minutes)                                                                (needs a poster)
 *   refresh-citations (S2_CRON, daily)       Semantic Scholar's counts: its own run, never part of a poll
 *
 * A follow-up (`then`) runs right after a successful run, under its own lock, so every poll's new
 * papers are judged (when a key is set), summarised and then announced to subscribers.
 */
export function createJobs(ports: JobPorts = {}): readonly Job[] {
  const judge = afterPoll(ports);
  return [
    { ...pollFeedsJob, then: judge },
    { ...pollHfJob, then: judge },
    summariesThenNotify(ports),
    refreshCitationsJob(),
    ...(ports.poster ? [postDigestsJob({ poster: ports.poster })] : []),
  ];
}

/**
 * What follows every poll: the relevance judge, summaries, then subscriber notifications when there
 * is a notifier (only the bot has one). The scheduler and the CLI's `poll` run this same chain.
 */
export function afterPoll(ports: JobPorts = {}): Job {
  return { ...judgeRelevanceJob, then: summariesThenNotify(ports) };
}

function summariesThenNotify(ports: JobPorts): Job {
  const notify = ports.notifier && notifySubscribersJob({ notifier: ports.notifier });
  return notify ? { ...summarizePendingJob, then: notify } : summarizePendingJob;
}
