/**
 * Which new matches go out as their own message and which are bundled, and the nonce of each
 * message. Pure.
 */
import { createHash } from 'node:crypto';

export interface PlannedNotification {
  paperId: number;
  bundled: boolean;
  /** The message's nonce: one per paper, shared by the papers of a bundle. */
  nonce: string;
}

/** Discord nonces are at most 25 characters: a stable hash of what the message is. */
export function notificationNonce(userId: string, paperIds: readonly number[], bundled: boolean): string {
  const key = `notify|${userId}|${bundled ? 'bundle' : 'paper'}|${[...paperIds].sort((a, b) => a - b).join(',')}`;
  return createHash('sha256').update(key).digest('base64url').slice(0, 25);
}

/**
 * The first `room` papers (newest news first, as given) get a message each; the rest, if any,
 * share one bundle message. `room` is the user's daily cap minus today's individual messages.
 */
export function planNotifications(userId: string, paperIds: readonly number[], room: number): PlannedNotification[] {
  const own = paperIds.slice(0, Math.max(0, room));
  const rest = paperIds.slice(own.length);
  const bundleNonce = rest.length ? notificationNonce(userId, rest, true) : '';
  return [
    ...own.map((paperId) => ({ paperId, bundled: false, nonce: notificationNonce(userId, [paperId], false) })),
    ...rest.map((paperId) => ({ paperId, bundled: true, nonce: bundleNonce })),
  ];
}

/** Midnight UTC of the day `now` falls in: the daily cap counts from there. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
