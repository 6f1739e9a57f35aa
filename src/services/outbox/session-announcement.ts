import { setAnnouncement } from '../../../db/queries/queue.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import { deliveryNonce, type Poster } from '../../core/delivery/poster.ts';
import type { Reply } from '../../core/reply.ts';
import { sendPlanned, type PlannedMessage } from './send.ts';

/** A session announcement DMs at most this many voters; the channel message lists them all. */
const MAX_VOTER_DMS = 50;

export interface SessionAnnouncement {
  guildId: string;
  channelId: string;
  /** The queue item scheduled, and its session date: together the announcement's identity. */
  itemId: number;
  date: string;
  announcement: Reply;
  threadName: string;
  voters: readonly string[];
  /** The direct message each voter gets. */
  voterText: string;
}

/** Posted (and how many voters were told), or why not. */
export type AnnounceOutcome = { posted: true; told: number } | { posted: false; why: string };

type AnnounceDeps = Pick<AppDeps, 'db' | 'log' | 'notifier'> & { poster: Poster };

/**
 * `/queue next`'s announcement through the outbox sender. No outbox rows are stored (a moderator
 * runs the command again), so every failure is final; the nonces are the same for the same session,
 * so a retried command is not posted or DMed twice on a platform that enforces nonces. The post is
 * recorded on the queue item; voters are told only once it is out.
 */
export async function announceSession(deps: AnnounceDeps, a: SessionAnnouncement): Promise<AnnounceOutcome> {
  const key = `queue:${a.itemId}:${a.date}`;
  let why = '';
  const post = await sendPlanned(
    [{ nonce: deliveryNonce(a.channelId, key, 0) }],
    (p) => deps.poster.send(a.channelId, a.announcement, { nonce: p.nonce, threadName: a.threadName }),
    {
      sent: (_p, { messageId }) => setAnnouncement(deps.db, a.itemId, messageId),
      failed: async (_p, reason, err) => {
        why = reason;
        deps.log.warn({ err, guild: a.guildId, channel: a.channelId }, 'queue announcement not posted');
      },
    },
    { afterFailed: 'stop' },
  );
  if (post.sent === 0) return { posted: false, why };
  return { posted: true, told: deps.notifier ? await tellVoters(deps, deps.notifier, a, key) : 0 };
}

interface VoterMessage extends PlannedMessage {
  userId: string;
}

/** Best effort: a voter whose DMs are closed is skipped (the announcement lists them anyway). Returns how many were told. */
async function tellVoters(deps: AnnounceDeps, notifier: Notifier, a: SessionAnnouncement, key: string) {
  const voters: VoterMessage[] = a.voters
    .slice(0, MAX_VOTER_DMS)
    .map((userId) => ({ userId, nonce: deliveryNonce(userId, key, 0) }));
  const tally = await sendPlanned(
    voters,
    (v) => notifier.dm(v.userId, { content: a.voterText }, { nonce: v.nonce }),
    {
      sent: async () => {},
      failed: async (v, _reason, err) => deps.log.info({ err, user: v.userId }, 'voter not told (DMs closed?)'),
    },
    { afterFailed: 'next' },
  );
  return tally.sent;
}
