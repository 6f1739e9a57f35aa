import {
  activeChannels, isDigestPlanned, markRetry, markSending, markSent, markUndeliverable, planDigest, unfinishedDigests, unsentParts,
  type OutboxPayload, type PlannedPart,
} from '../db/queries/deliveries.ts';
import { loadChannelDigest } from '../db/queries/digest.ts';
import { composeDigest } from '../src/digest/compose.ts';
import { digestSummaries } from '../src/summarize/show.ts';
import type { Db } from '../db/client.ts';
import type { Channel } from '../db/schema.ts';
import { DeliveryError, type Poster } from '../src/delivery/poster.ts';
import { dueDigestKey } from '../src/delivery/schedule.ts';
import type { Job, JobDeps, JobStats } from './index.ts';

/** Builds a channel's digest messages for a digest key (the composer, over the database). */
export type ComposeDigest = (db: Db, channel: Channel, digestKey: string, now: Date) => Promise<PlannedPart[]>;

/** The real composer: the channel's window, ranked papers and summaries, composed into messages. */
export const composeChannelDigest: ComposeDigest = async (db, channel, _digestKey, now) => {
  const digest = await loadChannelDigest(db, channel.channelId, { now }, digestSummaries);
  return digest ? composeDigest(digest.input) : [];
};

export interface PostDigestsOptions {
  poster: Poster;
  /** Defaults to `composeChannelDigest`; tests pass fixed messages. */
  compose?: ComposeDigest;
  /** Only this channel (the `/digest now` command, the CLI). */
  channelId?: string;
  /** Post now whatever the channel's local time (`/digest now`). */
  force?: boolean;
}

/** Delivery needs the database, a logger and a clock only, so `/digest now` can run it from a command. */
export type DeliveryDeps = Pick<JobDeps, 'db' | 'log' | 'now'> & Partial<JobDeps>;

interface Counts extends JobStats {
  planned: number;
  messages: number;
  failed: number;
  undeliverable: number;
}

/**
 * Delivers digests exactly once. First every digest left unfinished (a crash, an outage) is
 * completed; then each channel whose local post time has come gets its digest planned into the
 * outbox and sent part by part, in order. A part is marked `sending` before the send and `sent`
 * after, and carries a stable nonce, so a crash between the two re-sends it with the same nonce
 * (the platform returns the first message) and never skips one. A channel the bot can no longer
 * post to is marked with the reason and skipped; the others still get theirs.
 */
export async function postDigests(deps: DeliveryDeps, opts: PostDigestsOptions): Promise<Counts> {
  const now = deps.now();
  const counts: Counts = { planned: 0, messages: 0, failed: 0, undeliverable: 0 };
  const only = (channelId: string) => !opts.channelId || channelId === opts.channelId;

  for (const d of await unfinishedDigests(deps.db)) {
    if (only(d.channelId)) await sendDigest(deps, opts.poster, d.channelId, d.digestKey, counts);
  }
  for (const channel of await activeChannels(deps.db)) {
    if (!only(channel.channelId)) continue;
    const key = opts.force ? dueDigestKey({ ...channel, postTime: '00:00', cadence: 'daily' }, now) : dueDigestKey(channel, now);
    if (!key || (await isDigestPlanned(deps.db, channel.channelId, key))) continue;
    const parts = await (opts.compose ?? composeChannelDigest)(deps.db, channel, key, now);
    if (await planDigest(deps.db, channel.channelId, key, parts, now)) counts.planned++;
    await sendDigest(deps, opts.poster, channel.channelId, key, counts);
  }
  return counts;
}

async function sendDigest(deps: DeliveryDeps, poster: Poster, channelId: string, digestKey: string, counts: Counts): Promise<void> {
  const log = deps.log.child({ channel: channelId, digest: digestKey });
  for (const part of await unsentParts(deps.db, channelId, digestKey)) {
    await markSending(deps.db, part.id);
    try {
      const { reply, pingRoleIds, threadName } = part.payload as OutboxPayload;
      const { messageId } = await poster.send(channelId, reply, { nonce: part.nonce, pingRoleIds, ...(threadName && { threadName }) });
      await markSent(deps.db, part.id, messageId, deps.now());
      counts.messages++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof DeliveryError && err.permanent) {
        await markUndeliverable(deps.db, channelId, message, deps.now());
        counts.undeliverable++;
        log.warn({ reason: message }, 'channel undeliverable: skipped until /digest setup is run again');
      } else {
        await markRetry(deps.db, part.id, message);
        counts.failed++;
        log.error({ err, part: part.part }, 'digest part not delivered; the next run retries it');
      }
      return; // later parts wait, so the digest never arrives with a gap
    }
  }
}

/** Every few minutes: each channel posts at its own local time, so the job checks often and posts when due. */
export function postDigestsJob(opts: Omit<PostDigestsOptions, 'channelId' | 'force'>): Job {
  return { name: 'post-digests', lock: 'post-digests', schedule: '*/5 * * * *', run: (deps) => postDigests(deps, opts) };
}
