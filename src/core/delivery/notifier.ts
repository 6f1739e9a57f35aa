import type { Reply } from '../reply.ts';

/**
 * Where subscription notifications go: a direct message, or a channel message that pings the
 * subscriber. The Discord adapter implements it with the real client; tests record. Failures are
 * thrown as `DeliveryError` (poster.ts): `permanent` when retrying cannot help (the user does not
 * accept DMs from the bot: Discord 50007; the channel is gone or closed to the bot).
 */
export interface Notifier {
  /** A direct message to the user. The nonce is the same on every retry of the same outbox row. */
  dm(userId: string, message: Reply, opts: { nonce: string }): Promise<{ messageId: string }>;
  /**
   * A channel message. Nothing in it may ping anyone except the users in `pingUserIds` (the
   * subscriber it is for): no @everyone, no roles, no other user.
   */
  post(
    channelId: string,
    message: Reply,
    opts: { nonce: string; pingUserIds: string[] },
  ): Promise<{ messageId: string }>;
}
