import { deliverDigests, type DeliverOptions } from '../src/services/outbox/deliver.ts';
import type { Job } from './index.ts';

/**
 * Every five minutes: each channel posts at its own local time, so the job checks often and posts
 * when due. The delivery itself (outbox, nonces, exactly once) is src/services/outbox/deliver.ts, which
 * `/digest now` calls too.
 */
export function postDigestsJob(opts: Omit<DeliverOptions, 'channelId' | 'force'>): Job {
  return {
    name: 'post-digests',
    lock: 'post-digests',
    schedule: '*/5 * * * *',
    run: (deps) => deliverDigests(deps, opts),
  };
}
