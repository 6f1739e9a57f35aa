import {
  candidatePapers,
  insertPlanned,
  markNoticeFailed,
  markNoticeRetry,
  markNoticeSending,
  markNoticeSent,
  notifiedPaperIds,
  ownMessagesSince,
  subscribersWithRules,
  unsentNotifications,
  type CandidatePaper,
  type SubscriberWithRules,
  type UnsentNotification,
} from '../../../db/queries/notifications.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import { matchingRules } from '../../core/subscriptions/match.ts';
import { bundleNotification, paperNotification, type PaperMatch } from '../../core/subscriptions/notification.ts';
import { planNotifications, startOfUtcDay } from '../../core/subscriptions/plan.ts';
import { noticeRoute } from './notice-route.ts';
import { sendPlanned, type PlannedMessage } from './send.ts';

/** Only papers that became news this recently are candidates: a new subscriber is never flooded with the backlog. */
export const WINDOW_DAYS = 3;
/** A transient failure is retried on later runs, at most this many attempts in all; then the row is failed for good. */
export const MAX_ATTEMPTS = 3;

export type NotifyDeps = Pick<AppDeps, 'db' | 'log' | 'now'>;

export interface NoticeCounts {
  [key: string]: number;
  subscribers: number;
  off: number;
  planned: number;
  messages: number;
  fallbacks: number;
  failed: number;
  retrying: number;
}

/**
 * Sends each subscriber the new GRPO-family papers that match what they follow, each paper once
 * per user, ever. For every user: the matches not yet in the outbox are planned (their own
 * message up to the daily cap, the rest bundled into one message) and written `pending`; then
 * everything unsent goes through the outbox sender (send.ts), message by message. A DM the user
 * does not accept falls back to a channel (notice-route.ts); without one it is recorded as failed.
 */
export async function notifySubscribers(deps: NotifyDeps, opts: { notifier: Notifier }): Promise<NoticeCounts> {
  const now = deps.now();
  const papers = await candidatePapers(deps.db, new Date(now.getTime() - WINDOW_DAYS * 86_400_000), now);
  const counts: NoticeCounts = {
    subscribers: 0,
    off: 0,
    planned: 0,
    messages: 0,
    fallbacks: 0,
    failed: 0,
    retrying: 0,
  };
  for (const sub of await subscribersWithRules(deps.db)) {
    counts.subscribers++;
    if (sub.settings.mode === 'off') {
      counts.off++;
      continue;
    }
    counts.planned += await planForSubscriber(deps, sub, papers, now);
    await sendForSubscriber(deps, opts.notifier, sub, counts);
  }
  return counts;
}

/** Writes a subscriber's new matches to the outbox (nothing is sent); returns how many rows were added. */
export async function planForSubscriber(
  deps: NotifyDeps,
  sub: SubscriberWithRules,
  papers: CandidatePaper[],
  now: Date,
): Promise<number> {
  const matched = papers.filter((p) => matchingRules(p, sub.rules).length > 0).map((p) => p.id);
  const known = await notifiedPaperIds(deps.db, sub.userId, matched);
  const fresh = matched.filter((id) => !known.has(id));
  if (fresh.length === 0) return 0;
  const room = sub.settings.dailyCap - (await ownMessagesSince(deps.db, sub.userId, startOfUtcDay(now)));
  const via = sub.settings.mode === 'channel' ? 'channel' : 'dm';
  return insertPlanned(deps.db, sub.userId, via, planNotifications(sub.userId, fresh, room), now);
}

/** One message of the outbox: a paper's own row, or a bundle's rows together (they share a nonce). */
interface NoticeMessage extends PlannedMessage {
  rows: UnsentNotification[];
  paperIds: number[];
}

/** One message per nonce, in outbox order. */
function messagesOf(rows: UnsentNotification[]): NoticeMessage[] {
  const groups = new Map<string, UnsentNotification[]>();
  for (const r of rows) {
    const key = r.nonce ?? `paper:${r.paperId}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((rows) => ({
    rows,
    paperIds: rows.map((r) => r.paperId),
    nonce: rows[0]!.nonce ?? '',
    attempts: Math.max(...rows.map((r) => r.attempts)),
    lastError: rows[0]!.reason,
  }));
}

function noticeReply(m: NoticeMessage, sub: SubscriberWithRules) {
  const items: PaperMatch[] = m.rows.map((r) => ({ paper: r.paper, matched: matchingRules(r.paper, sub.rules) }));
  return m.rows[0]!.bundled ? bundleNotification(items, sub.settings.dailyCap) : paperNotification(items[0]!);
}

/** A failure for good goes on with the next message; a transient one leaves the rest for the next run. */
async function sendForSubscriber(
  deps: NotifyDeps,
  notifier: Notifier,
  sub: SubscriberWithRules,
  counts: NoticeCounts,
): Promise<void> {
  const log = deps.log.child({ subscriber: sub.userId });
  const send = noticeRoute(deps.db, notifier, sub);
  await sendPlanned(
    messagesOf(await unsentNotifications(deps.db, sub.userId)),
    (m) => send(noticeReply(m, sub), m.nonce),
    {
      sending: (m) => markNoticeSending(deps.db, sub.userId, m.paperIds),
      sent: async (m, { via, messageId }) => {
        await markNoticeSent(deps.db, sub.userId, m.paperIds, via, messageId, deps.now());
        counts.messages++;
        if (via === 'channel' && sub.settings.mode !== 'channel') counts.fallbacks++;
      },
      retry: async (m, reason) => {
        await markNoticeRetry(deps.db, sub.userId, m.paperIds, reason);
        counts.retrying += m.paperIds.length;
        log.warn(
          { reason, attempt: m.attempts! + 1 },
          'subscription notification not delivered; the next run retries it',
        );
      },
      failed: async (m, reason, err) => {
        await markNoticeFailed(deps.db, sub.userId, m.paperIds, reason);
        counts.failed += m.paperIds.length;
        if (err !== undefined) log.warn({ reason, papers: m.paperIds }, 'subscription notification failed for good');
      },
    },
    { afterFailed: 'next', maxAttempts: MAX_ATTEMPTS },
  );
}
