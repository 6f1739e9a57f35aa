import { DiscordAPIError, HTTPError, type Client, type Message } from 'discord.js';
import { DeliveryError, type Poster } from '../../core/delivery/poster.ts';
import { renderMessage, type MessagePayload } from './render.ts';

/** How far back a re-send looks for its first attempt: one page of the channel's latest messages. */
export const LOOK_BACK = 100;

/** Discord error codes after which retrying cannot help: the channel is gone or the bot lost access. */
const PERMANENT_CODES = new Set([10003, 50001, 50013]);

/**
 * Maps a send failure to a DeliveryError: Unknown Channel, Missing Access, Missing Permissions and
 * any other 403/404 are permanent (the channel is skipped until set up again); rate limits, 5xx and
 * network failures are transient (the outbox retries the same part, with the same nonce).
 */
export function toDeliveryError(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (err instanceof DiscordAPIError) {
    const permanent = PERMANENT_CODES.has(Number(err.code)) || err.status === 403 || err.status === 404;
    return new DeliveryError(`Discord ${err.status} ${err.code}: ${err.message}`, permanent);
  }
  if (err instanceof HTTPError) return new DeliveryError(`Discord ${err.status}: ${err.message}`, false);
  return new DeliveryError(`Discord unreachable: ${err instanceof Error ? err.message : String(err)}`, false);
}

/**
 * Posts digest messages with the bot's client. The nonce is sent with `enforce_nonce`, so a part
 * re-sent after a crash returns the message Discord already created instead of a duplicate. Only
 * the roles in `pingRoleIds` may be pinged; nothing in paper text can ping anyone.
 */
export function discordPoster(client: Client): Poster {
  return {
    async send(channelId, reply, { nonce, pingRoleIds, threadName }) {
      let message;
      try {
        const channel = await client.channels.fetch(channelId);
        if (!channel?.isSendable())
          throw new DeliveryError(`Channel ${channelId} is not a channel the bot can post messages in`, true);
        message = await channel.send({ ...renderMessage(reply, { pingRoleIds }), nonce, enforceNonce: true });
      } catch (err) {
        throw toDeliveryError(err);
      }
      // Also when a retried send returned the first message: a thread already open there makes this fail, harmlessly.
      if (threadName && message.inGuild() && !message.hasThread)
        await message.startThread({ name: threadName }).catch(() => {});
      return { messageId: message.id };
    },

    async findSent(channelId, reply, { nonce }) {
      try {
        const channel = await client.channels.fetch(channelId);
        if (!channel?.isTextBased())
          throw new DeliveryError(`Channel ${channelId} is not a channel the bot can post messages in`, true);
        const want = marks(renderMessage(reply));
        const recent = await channel.messages.fetch({ limit: LOOK_BACK, cache: false });
        // Discord keeps a message's nonce only briefly, so the message's own marks decide when it is gone.
        const found = recent.find((m) => m.author.id === client.user?.id && (m.nonce === nonce || marksOf(m) === want));
        return found ? { messageId: found.id } : null;
      } catch (err) {
        throw toDeliveryError(err);
      }
    },
  };
}

/** What identifies a digest part as posted: its text, its embeds' titles and its buttons' ids (the header names the day). */
function marks(p: MessagePayload): string {
  return JSON.stringify([
    p.content,
    p.embeds.map((e) => e.title ?? ''),
    p.components.flatMap((row) =>
      row.components.map((c) => ('custom_id' in c ? c.custom_id : 'url' in c ? c.url : '')),
    ),
  ]);
}

function marksOf(m: Message): string {
  return JSON.stringify([
    m.content,
    m.embeds.map((e) => e.title ?? ''),
    m.components.flatMap((row) =>
      'components' in row
        ? row.components.map((c) => {
            const d = c.data as { custom_id?: string; url?: string };
            return d.custom_id ?? d.url ?? '';
          })
        : [],
    ),
  ]);
}
