import { createHash } from 'node:crypto';
import type { Reply } from '../reply.ts';

/**
 * Where digests go. The Discord adapter implements it with the real client (message nonce with
 * `enforce_nonce`, `allowedMentions` empty); the console prints; tests record. Delivery logic
 * (the outbox) never knows which.
 */
export interface Poster {
  /**
   * Posts one message. The nonce is the same on every retry of the same outbox part, so a
   * platform that enforces nonces returns the first message instead of posting a duplicate.
   * Nothing in the message may ping anyone except the roles in `pingRoleIds` (a channel's opt-in).
   * With `threadName`, a discussion thread is opened on the message; failing to open it never
   * fails the delivery (the paper is posted, and re-posting it would be worse).
   */
  send(
    channelId: string,
    message: Reply,
    opts: { nonce: string; pingRoleIds?: string[]; threadName?: string },
  ): Promise<{ messageId: string }>;
  /**
   * Looks among the channel's recent messages for the one this bot posted as `message` with this
   * nonce; null when it is not there. Asked before re-sending a part a crash left `sending`: the
   * platform dedupes nonces only for a few minutes, so after a longer outage only the channel
   * itself can say whether the first attempt got through. A message counts when it is the bot's
   * and carries the nonce or the message's own marks (its text, embed titles and button ids), so
   * the platform need not keep nonces.
   */
  findSent(channelId: string, message: Reply, opts: { nonce: string }): Promise<{ messageId: string } | null>;
}

/**
 * A send that failed. `permanent` means retrying cannot help (the channel is gone, the bot lost
 * access or permissions): the channel is marked with the reason and skipped until reconfigured.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Discord nonces are at most 25 characters: a digest part's nonce is a stable hash of what it is. */
export function deliveryNonce(channelId: string, digestKey: string, part: number): string {
  return createHash('sha256').update(`${channelId}|${digestKey}|${part}`).digest('base64url').slice(0, 25);
}
