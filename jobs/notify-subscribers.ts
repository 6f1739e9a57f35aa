import type { Notifier } from '../src/core/delivery/notifier.ts';
import { notifySubscribers } from '../src/services/outbox/notices.ts';
import { sendVersionNotices } from '../src/services/outbox/version-notices.ts';
import type { Job } from './index.ts';

/**
 * The job. It needs a Notifier (the bot's), so it is built by the composition root; the bot runs
 * it as the follow-up of every poll and summary run (jobs/graph.ts). The schedule is for running it
 * on its own. What it sends, once per user and paper, is src/services/outbox/notices.ts; then the
 * notes of meaningful new versions (once per user, paper and version: outbox/version-notices.ts).
 */
export function notifySubscribersJob(opts: { notifier: Notifier }): Job {
  return {
    name: 'notify-subscribers',
    lock: 'notify-subscribers',
    schedule: '40 * * * *',
    run: async (deps) => ({
      ...(await notifySubscribers(deps, opts)),
      versions: await sendVersionNotices(deps, opts),
    }),
  };
}
