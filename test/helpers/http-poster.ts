import { DeliveryError, type Poster } from '../../src/core/delivery/poster.ts';
import type { Reply } from '../../src/core/reply.ts';

/** A Poster over HTTP to the fake (the Discord adapter's shape, without discord.js). */
export function httpPoster(base: string, onAccepted?: (part: { channelId: string; nonce: string }) => void): Poster {
  return {
    async send(channelId, reply, { nonce, pingRoleIds }) {
      const res = await fetch(`${base}/channels/${channelId}/messages`, {
        method: 'POST',
        body: JSON.stringify({ nonce, reply, pingRoleIds }),
      });
      if (res.status === 403 || res.status === 404)
        throw new DeliveryError(`Discord ${res.status}: ${await res.text()}`, true);
      if (!res.ok) throw new DeliveryError(`Discord ${res.status}`, false);
      const { id } = (await res.json()) as { id: string };
      onAccepted?.({ channelId, nonce });
      return { messageId: id };
    },
    // Like the Discord adapter: the channel's recent messages, matched by what they show (the fake, like Discord, keeps no nonce).
    async findSent(channelId, reply) {
      const res = await fetch(`${base}/channels/${channelId}/messages?limit=100`);
      if (res.status === 403 || res.status === 404)
        throw new DeliveryError(`Discord ${res.status}: ${await res.text()}`, true);
      if (!res.ok) throw new DeliveryError(`Discord ${res.status}`, false);
      const recent = (await res.json()) as { id: string; reply: Reply }[];
      const found = recent.find((m) => JSON.stringify(m.reply) === JSON.stringify(reply));
      return found ? { messageId: found.id } : null;
    },
  };
}
