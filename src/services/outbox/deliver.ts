import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../../db/client.ts';
import {
  activeChannels,
  claimPart,
  isDigestPlanned,
  markPartRetry,
  markPartSending,
  markPartSent,
  markUndeliverable,
  planDigest,
  unfinishedDigests,
  unsentParts,
  type OutboxPayload,
} from '../../../db/queries/deliveries.ts';
import type { Channel, Delivery } from '../../../db/schema.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { DigestMessage } from '../../core/digest/types.ts';
import { deliveryNonce, type Poster } from '../../core/delivery/poster.ts';
import type { Logger } from '../../core/log.ts';
import { dueDigestKey } from '../../core/delivery/schedule.ts';
import { composeChannelDigest } from './channel-digest.ts';
import { withDigestPicture, type DrawDigestPicture } from './header-picture.ts';
import { COMPOSED_AT_ONCE, eachAtMost, sendQueue, type Due } from './send-queue.ts';
import { sendPlanned } from './send.ts';

/** Builds a channel's digest messages for a digest key (the composer, over the database). */
export type ComposeDigest = (db: Db, channel: Channel, digestKey: string, now: Date) => Promise<DigestMessage[]>;

export interface DeliverOptions {
  poster: Poster;
  /** Defaults to the real composer; tests pass fixed messages. */
  compose?: ComposeDigest;
  /** Only this channel (`/digest now`, the CLI). */
  channelId?: string;
  /** Post now whatever the channel's local time (`/digest now`). */
  force?: boolean;
  /** Draws a weekly digest's header picture; defaults to the real renderer, tests pass a failing one. */
  drawPicture?: DrawDigestPicture;
}

/** Delivery needs the database, a logger and a clock only. */
export type DeliveryDeps = Pick<AppDeps, 'db' | 'log' | 'now'>;

export interface DeliveryCounts {
  [key: string]: number;
  planned: number;
  messages: number;
  failed: number;
  undeliverable: number;
  /** Digest parts another run (another process, or the scheduled job beside `/digest now`) was sending: left to it. */
  busy: number;
}

/**
 * A part's claim lapses this long after it was made: its run died mid-send (SIGKILL, a lost machine)
 * and another takes the part over, looking for it in the channel first. A live run holds a part for
 * one send (seconds), so this only delays finishing a dead run's digest, by at most one job interval more.
 */
export const CLAIM_LAPSES_MS = 2 * 60 * 1000;

/**
 * This process's name in the parts it claims, one per database handle (two apps in one process, as in
 * tests, differ): a run retried after a database outage takes back its own process's claims at once.
 */
const claimants = new WeakMap<Db, { by: string; sending: Set<string> }>();
function claimantOf(db: Db) {
  let c = claimants.get(db);
  if (!c)
    claimants.set(
      db,
      (c = { by: `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`, sending: new Set() }),
    );
  return c;
}

/**
 * Delivers digests exactly once; the scheduled job and `/digest now` both call this. First every
 * digest left unfinished (a crash, an outage) is completed; then each channel whose local post time
 * has come (or the one forced) gets its digest planned into the outbox and sent part by part, in
 * order. Each part is first claimed in Postgres for this process (one UPDATE): a part another live
 * process holds is left to it, and a digest another run of this process is sending too, so two
 * processes, or the job beside `/digest now`, never both send one; a claim lapses after
 * `CLAIM_LAPSES_MS` (its process died). A part is marked `sending` before the send and `sent` after, and carries a stable nonce; a
 * part tried before (a crash between the two, a failed send) is first looked for in the channel and
 * recorded sent if it is there, else re-sent with the same nonce, so it is never skipped nor, however
 * late the restart, posted twice. A channel the bot can no longer post to is marked with the reason and
 * skipped; the others still get theirs. Channels are composed and sent side by side
 * (`CHANNELS_AT_ONCE`), each digest as soon as it is planned (`COMPOSED_AT_ONCE` at a time).
 */
export async function deliverDigests(deps: DeliveryDeps, opts: DeliverOptions): Promise<DeliveryCounts> {
  const now = deps.now();
  const counts: DeliveryCounts = { planned: 0, messages: 0, failed: 0, undeliverable: 0, busy: 0 };
  const only = (channelId: string) => !opts.channelId || channelId === opts.channelId;
  const send = (d: Due) => sendDigest(deps, opts, d, counts);

  const left = sendQueue(send);
  for (const d of await unfinishedDigests(deps.db)) if (only(d.channelId)) left.add(d);
  await left.close();

  const today = sendQueue(send);
  try {
    await eachAtMost(
      (await activeChannels(deps.db)).filter((c) => only(c.channelId)),
      COMPOSED_AT_ONCE,
      async (channel) => {
        const key = opts.force
          ? dueDigestKey({ ...channel, postTime: '00:00', cadence: 'daily' }, now)
          : dueDigestKey(channel, now);
        if (!key || (await isDigestPlanned(deps.db, channel.channelId, key))) return;
        const messages = await (opts.compose ?? composeChannelDigest)(deps.db, channel, key, now);
        if (!(await planDigest(deps.db, channel.channelId, key, outboxRows(channel.channelId, key, messages), now)))
          return;
        counts.planned++;
        if (messages.length > 0) today.add({ channelId: channel.channelId, digestKey: key, parts: messages.length });
      },
    );
  } finally {
    await today.close();
  }
  return counts;
}

/** The outbox rows of a digest: one per message with its stable nonce; an empty digest (a quiet day, no notice) is one `empty` row. */
export function outboxRows(channelId: string, digestKey: string, messages: DigestMessage[]) {
  if (messages.length === 0)
    return [{ part: 0, nonce: deliveryNonce(channelId, digestKey, 0), payload: null, paperIds: [] }];
  return messages.map((m, part) => {
    const payload: OutboxPayload = {
      reply: m.reply,
      pingRoleIds: m.pingRoleId ? [m.pingRoleId] : [],
      ...(m.threadName && { threadName: m.threadName }),
      ...(m.picture && { picture: m.picture }),
    };
    return { part, nonce: deliveryNonce(channelId, digestKey, part), payload, paperIds: m.paperIds };
  });
}

/** A digest's unsent parts, in order, through the one outbox sender; a channel the bot cannot post to is marked undeliverable. */
async function sendDigest(
  deps: DeliveryDeps,
  opts: DeliverOptions,
  { channelId, digestKey }: Due,
  counts: DeliveryCounts,
): Promise<void> {
  const log = deps.log.child({ channel: channelId, digest: digestKey });
  // Two runs of this process (the job and `/digest now`) share its claims: the second leaves the digest to the first.
  const { by, sending } = claimantOf(deps.db);
  const digest = `${channelId}|${digestKey}`;
  if (sending.has(digest)) {
    counts.busy++;
    return;
  }
  sending.add(digest);
  try {
    await sendClaimed(deps, opts, { channelId, digestKey, by }, counts, log);
  } finally {
    sending.delete(digest);
  }
}

async function sendClaimed(
  deps: DeliveryDeps,
  opts: DeliverOptions,
  { channelId, digestKey, by }: { channelId: string; digestKey: string; by: string },
  counts: DeliveryCounts,
  log: Logger,
): Promise<void> {
  const tally = await sendPlanned(
    await unsentParts(deps.db, channelId, digestKey),
    (part) => postPart(opts, channelId, part, log),
    {
      // Only the run holding a part sends it; a part another run holds stops this one (its later parts wait for it).
      claim: (part) => {
        const now = deps.now();
        return claimPart(deps.db, part.id, by, now, new Date(now.getTime() - CLAIM_LAPSES_MS));
      },
      // Asked before re-sending a part tried before: Discord's nonce dedupes only for minutes, a restart can come hours later.
      findSent: (part) => opts.poster.findSent(channelId, (part.payload as OutboxPayload).reply, { nonce: part.nonce }),
      sending: (part) => markPartSending(deps.db, part.id),
      sent: (part, { messageId }) => markPartSent(deps.db, part.id, messageId, deps.now()),
      retry: async (part, reason, err) => {
        await markPartRetry(deps.db, part.id, reason);
        log.error({ err, part: part.part }, 'digest part not delivered; the next run retries it');
      },
      failed: async (_part, reason) => {
        await markUndeliverable(deps.db, channelId, reason, deps.now());
        log.warn({ reason }, 'channel undeliverable: skipped until /digest setup is run again');
      },
    },
    // Later parts wait, so the digest never arrives with a gap.
    { afterFailed: 'stop' },
  );
  counts.messages += tally.sent;
  counts.failed += tally.retrying;
  counts.undeliverable += tally.failed;
  counts.busy += tally.busy;
  if (tally.busy > 0) log.info({ by }, 'digest part held by another delivery run: left to it');
}

async function postPart(opts: DeliverOptions, channelId: string, part: Delivery, log: Logger) {
  const { reply, pingRoleIds, threadName, picture } = part.payload as OutboxPayload;
  // Drawn at each attempt (the same picture every time): a failed drawing sends the message without it.
  const message = picture ? await withDigestPicture(reply, picture, log, opts.drawPicture) : reply;
  return opts.poster.send(channelId, message, { nonce: part.nonce, pingRoleIds, ...(threadName && { threadName }) });
}
