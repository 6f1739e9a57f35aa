import {
  markVersionNoticeFailed,
  markVersionNoticeSending,
  markVersionNoticeSent,
  unsentVersionNotices,
  type UnsentVersionNotice,
} from '../../../db/queries/version-notices.ts';
import type { SubscriberWithRules } from '../../../db/queries/notifications.ts';
import { DEFAULT_SUBSCRIBER } from '../../../db/queries/subscriptions.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import { versionNotification } from '../../core/subscriptions/version-notice.ts';
import { MAX_ATTEMPTS, type NotifyDeps } from './notices.ts';
import { noticeRoute } from './notice-route.ts';
import { sendPlanned, type PlannedMessage } from './send.ts';

export interface VersionNoticeCounts {
  [key: string]: number;
  sent: number;
  retrying: number;
  failed: number;
}

type Message = PlannedMessage & { row: UnsentVersionNotice };

/**
 * Sends the planned version notes (jobs/diff-versions.ts plans them, one per user, paper and
 * version) through the outbox sender: a DM first, else the user's or the server's notification
 * channel with a mention of them only (notice-route.ts), at most MAX_ATTEMPTS attempts. A note
 * whose row is `sent` is never sent again.
 */
export async function sendVersionNotices(deps: NotifyDeps, opts: { notifier: Notifier }): Promise<VersionNoticeCounts> {
  const counts: VersionNoticeCounts = { sent: 0, retrying: 0, failed: 0 };
  const byUser = new Map<string, UnsentVersionNotice[]>();
  for (const row of await unsentVersionNotices(deps.db))
    byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  for (const [userId, rows] of byUser) {
    const first = rows[0]!;
    const sub: SubscriberWithRules = {
      userId,
      rules: [],
      settings: first.settings
        ? { ...first.settings, dailyCap: DEFAULT_SUBSCRIBER.dailyCap, guildId: first.settings.guildId ?? first.guildId }
        : { ...DEFAULT_SUBSCRIBER, guildId: first.guildId },
    };
    const send = noticeRoute(deps.db, opts.notifier, sub);
    const messages: Message[] = rows.map((row) => ({
      row,
      nonce: row.nonce,
      attempts: row.attempts,
      lastError: row.error,
    }));
    const tally = await sendPlanned(
      messages,
      (m) => send(versionNotification({ paper: m.row.paper, note: m.row.note ?? '', reason: m.row.reason }), m.nonce),
      {
        sending: (m) => markVersionNoticeSending(deps.db, m.row),
        sent: (m, { via, messageId }) => markVersionNoticeSent(deps.db, m.row, via, messageId, deps.now()),
        retry: (m, reason) => markVersionNoticeFailed(deps.db, m.row, reason, false),
        failed: async (m, reason) => {
          await markVersionNoticeFailed(deps.db, m.row, reason, true);
          deps.log.warn({ user: userId, paper: m.row.paperId, reason }, 'version note failed for good');
        },
      },
      { afterFailed: 'next', maxAttempts: MAX_ATTEMPTS },
    );
    counts.sent += tally.sent;
    counts.retrying += tally.retrying;
    counts.failed += tally.failed;
  }
  return counts;
}
