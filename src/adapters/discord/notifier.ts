import type { Client } from 'discord.js';
import { DeliveryError } from '../../core/delivery/poster.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import { toDeliveryError } from './poster.ts';
import { renderMessage } from './render.ts';

/** Discord's "Cannot send messages to this user": DMs closed, or no shared server. Final for that user. */
export const CANNOT_DM = 50007;

/**
 * Subscription notifications with the bot's client. A DM opens (or reuses) the DM channel and
 * sends with the nonce enforced; 50007 and any other 403/404 become a permanent DeliveryError (the
 * job then falls back to a channel). A channel message pings exactly the users in `pingUserIds`:
 * `allowedMentions` is `{ parse: [], users: [...] }`, so paper text can ping nobody.
 */
export function discordNotifier(client: Client): Notifier {
  return {
    async dm(userId, reply, { nonce }) {
      try {
        const channel = await client.users.createDM(userId);
        const message = await channel.send({ ...renderMessage(reply), nonce, enforceNonce: true });
        return { messageId: message.id };
      } catch (err) {
        const mapped = toDeliveryError(err);
        if ((err as { code?: unknown }).code === CANNOT_DM && !mapped.permanent)
          throw new DeliveryError(mapped.message, true);
        throw mapped;
      }
    },
    async post(channelId, reply, { nonce, pingUserIds }) {
      const users = [...new Set(pingUserIds)].filter((u) => /^\d{15,21}$/.test(u));
      try {
        const channel = await client.channels.fetch(channelId);
        if (!channel?.isSendable())
          throw new DeliveryError(`Channel ${channelId} is not a channel the bot can post messages in`, true);
        const message = await channel.send({
          ...renderMessage(reply),
          allowedMentions: { parse: [], users },
          nonce,
          enforceNonce: true,
        });
        return { messageId: message.id };
      } catch (err) {
        throw toDeliveryError(err);
      }
    },
  };
}
