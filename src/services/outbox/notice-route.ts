import type { Db } from '../../../db/client.ts';
import { guildNotifyChannel } from '../../../db/queries/guilds.ts';
import type { SubscriberWithRules } from '../../../db/queries/notifications.ts';
import type { Notifier } from '../../core/delivery/notifier.ts';
import { DeliveryError } from '../../core/delivery/poster.ts';
import type { Reply } from '../../core/reply.ts';
import { mentioning } from '../../core/subscriptions/notification.ts';

export interface SentNotice {
  via: 'dm' | 'channel';
  messageId: string;
}

/**
 * Where a subscriber's notices go during one run: a DM first (unless the user chose channel delivery
 * or refused DMs earlier in this run), else the channel (their own, else the server's notification
 * channel) with a mention of them only; without a channel the send fails for good.
 */
export function noticeRoute(db: Db, notifier: Notifier, sub: SubscriberWithRules) {
  let dmRefused = false;
  let channelId: string | null | undefined;
  const channel = async () =>
    (channelId ??= sub.settings.channelId ?? (await guildNotifyChannel(db, sub.settings.guildId)));

  return async function send(reply: Reply, nonce: string): Promise<SentNotice> {
    let dmError: string | undefined;
    if (sub.settings.mode !== 'channel' && !dmRefused) {
      try {
        return { via: 'dm', ...(await notifier.dm(sub.userId, reply, { nonce })) };
      } catch (err) {
        if (!(err instanceof DeliveryError && err.permanent)) throw err;
        dmRefused = true;
        dmError = err.message;
      }
    }
    const to = await channel();
    if (!to) {
      throw new DeliveryError(
        dmError
          ? `DM refused (${dmError}) and no channel to fall back to (/subscriptions channel, or the server's notification channel)`
          : 'channel delivery without a channel: set one with /subscriptions channel',
        true,
      );
    }
    return {
      via: 'channel',
      ...(await notifier.post(to, mentioning(sub.userId, reply), { nonce, pingUserIds: [sub.userId] })),
    };
  };
}
