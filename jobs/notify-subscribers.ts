import {
  candidatePapers,
  insertPlanned,
  markFailed,
  markRetry,
  markSending,
  markSent,
  notifiedPaperIds,
  ownMessagesSince,
  subscribersWithRules,
  unsentNotifications,
  type CandidatePaper,
  type SubscriberWithRules,
  type UnsentNotification,
} from '../db/queries/notifications.ts';
import { guildNotifyChannel } from '../db/queries/guilds.ts';
import type { Notifier } from '../src/core/delivery/notifier.ts';
import { DeliveryError } from '../src/core/delivery/poster.ts';
import type { Reply } from '../src/core/reply.ts';
import { matchingRules } from '../src/core/subscriptions/match.ts';
import {
  bundleNotification,
  mentioning,
  paperNotification,
  type PaperMatch,
} from '../src/core/subscriptions/notification.ts';
import { planNotifications, startOfUtcDay } from '../src/core/subscriptions/plan.ts';
import type { Job, JobDeps, JobStats } from './index.ts';

/** Only papers that became news this recently are candidates: a new subscriber is never flooded with the backlog. */
export const WINDOW_DAYS = 3;
/** A transient failure is retried on later runs, at most this many attempts in all; then the row is failed for good. */
export const MAX_ATTEMPTS = 3;

export type NotifyDeps = Pick<JobDeps, 'db' | 'log' | 'now'>;

interface Counts extends JobStats {
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
 * everything unsent is sent, message by message (`sending` before, `sent` after, a stable nonce).
 * A DM the user does not accept falls back to the channel (their own, else the server's
 * notification channel) with a mention of them only; without one it is recorded as failed.
 */
export async function notifySubscribers(deps: NotifyDeps, opts: { notifier: Notifier }): Promise<Counts> {
  const now = deps.now();
  const papers = await candidatePapers(deps.db, new Date(now.getTime() - WINDOW_DAYS * 86_400_000), now);
  const counts: Counts = { subscribers: 0, off: 0, planned: 0, messages: 0, fallbacks: 0, failed: 0, retrying: 0 };
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

/** One message per nonce: a paper's own, or a bundle's rows together, in outbox order. */
function messagesOf(rows: UnsentNotification[]): UnsentNotification[][] {
  const groups = new Map<string, UnsentNotification[]>();
  for (const r of rows) {
    const key = r.nonce ?? `paper:${r.paperId}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

async function sendForSubscriber(
  deps: NotifyDeps,
  notifier: Notifier,
  sub: SubscriberWithRules,
  counts: Counts,
): Promise<void> {
  const log = deps.log.child({ subscriber: sub.userId });
  const route = { dmRefused: false, channelId: undefined as string | null | undefined };
  const channel = async () =>
    (route.channelId ??= sub.settings.channelId ?? (await guildNotifyChannel(deps.db, sub.settings.guildId)));

  for (const rows of messagesOf(await unsentNotifications(deps.db, sub.userId))) {
    const ids = rows.map((r) => r.paperId);
    const attempt = Math.max(...rows.map((r) => r.attempts)) + 1;
    if (attempt > MAX_ATTEMPTS) {
      // A run died mid-send this many times: give up rather than retry forever.
      await markFailed(deps.db, sub.userId, ids, rows[0]!.reason ?? `not confirmed after ${MAX_ATTEMPTS} attempts`);
      counts.failed += ids.length;
      continue;
    }
    const items: PaperMatch[] = rows.map((r) => ({ paper: r.paper, matched: matchingRules(r.paper, sub.rules) }));
    const reply = rows[0]!.bundled ? bundleNotification(items, sub.settings.dailyCap) : paperNotification(items[0]!);
    await markSending(deps.db, sub.userId, ids);
    try {
      const { via, messageId } = await deliver(notifier, sub, reply, rows[0]!.nonce ?? '', route, channel);
      await markSent(deps.db, sub.userId, ids, via, messageId, deps.now());
      counts.messages++;
      if (via === 'channel' && sub.settings.mode !== 'channel') counts.fallbacks++;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof DeliveryError && err.permanent;
      if (permanent || attempt >= MAX_ATTEMPTS) {
        await markFailed(
          deps.db,
          sub.userId,
          ids,
          permanent ? reason : `${reason} (gave up after ${MAX_ATTEMPTS} attempts)`,
        );
        counts.failed += ids.length;
        log.warn({ reason, papers: ids }, 'subscription notification failed for good');
      } else {
        await markRetry(deps.db, sub.userId, ids, reason);
        counts.retrying += ids.length;
        log.warn({ reason, attempt }, 'subscription notification not delivered; the next run retries it');
        return; // the platform is having trouble: the rest waits for the next run
      }
    }
  }
}

/** DM first (unless the user chose channel delivery or refused DMs earlier in this run), else the channel with a mention. */
async function deliver(
  notifier: Notifier,
  sub: SubscriberWithRules,
  reply: Reply,
  nonce: string,
  route: { dmRefused: boolean },
  channel: () => Promise<string | null>,
): Promise<{ via: 'dm' | 'channel'; messageId: string }> {
  let dmError: string | undefined;
  if (sub.settings.mode !== 'channel' && !route.dmRefused) {
    try {
      return { via: 'dm', ...(await notifier.dm(sub.userId, reply, { nonce })) };
    } catch (err) {
      if (!(err instanceof DeliveryError && err.permanent)) throw err;
      route.dmRefused = true;
      dmError = err.message;
    }
  }
  const channelId = await channel();
  if (!channelId) {
    throw new DeliveryError(
      dmError
        ? `DM refused (${dmError}) and no channel to fall back to (/subscriptions channel, or the server's notification channel)`
        : 'channel delivery without a channel: set one with /subscriptions channel',
      true,
    );
  }
  return {
    via: 'channel',
    ...(await notifier.post(channelId, mentioning(sub.userId, reply), { nonce, pingUserIds: [sub.userId] })),
  };
}

/**
 * The job. It needs a Notifier (the bot's), so it is built by the composition root; the bot runs
 * it as the follow-up of every poll and summary run (jobs/graph.ts). The schedule is for
 * running it on its own.
 */
export function notifySubscribersJob(opts: { notifier: Notifier }): Job {
  return {
    name: 'notify-subscribers',
    lock: 'notify-subscribers',
    schedule: '40 * * * *',
    run: (deps) => notifySubscribers(deps, opts),
  };
}
