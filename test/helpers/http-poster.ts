import { DeliveryError, type Poster } from '../../src/core/delivery/poster.ts';

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
  };
}
