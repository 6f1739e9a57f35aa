import type { Notifier } from '../src/core/delivery/notifier.ts';
import { notifySubscribers } from '../src/services/outbox/notices.ts';
import type { Job } from './index.ts';

/**
 * The job. It needs a Notifier (the bot's), so it is built by the composition root; the bot runs
 * it as the follow-up of every poll and summary run (jobs/graph.ts). The schedule is for running it
 * on its own. What it sends, once per user and paper, is src/services/outbox/notices.ts.
 */
export function notifySubscribersJob(opts: { notifier: Notifier }): Job {
  return {
    name: 'notify-subscribers',
    lock: 'notify-subscribers',
    schedule: '40 * * * *',
    run: (deps) => notifySubscribers(deps, opts),
  };
}
