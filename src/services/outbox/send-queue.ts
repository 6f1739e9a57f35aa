/**
 * Channels composed and sent side by side. Discord allows a bot 50 requests a second but a channel
 * only 5 messages every 5 seconds, and each send waits a round trip: one channel at a time would leave
 * most of the budget unused (a day for 1,000 channels took minutes), and a channel sitting out its
 * 5 s holds its worker. About a second of the global budget in flight keeps it busy; the client paces
 * the total under the global limit (src/adapters/discord/pace.ts), and each channel's parts still go in order.
 */
export const CHANNELS_AT_ONCE = 48;

/**
 * Digests composed and planned at once. Composing is database and CPU work, not waiting: more at once
 * only delays the first send (48 side by side took 13 s of a fan-out's start before any was ready).
 */
export const COMPOSED_AT_ONCE = 4;

export interface Due {
  channelId: string;
  digestKey: string;
  /** Parts to send: the longest digests go first, since a channel posts only 5 messages every 5 s and a long one would otherwise finish last. */
  parts: number;
}

/**
 * Digests sent as they are added, at most `CHANNELS_AT_ONCE` at once, the one with the most parts
 * first; a channel's digests go one after another, oldest first. `close` waits for all of them and
 * throws the first failure (after one, nothing new starts).
 */
export function sendQueue(send: (d: Due) => Promise<void>) {
  const ready: Due[][] = [];
  const busy = new Set<string>();
  let closed = false;
  let failure: { err: unknown } | undefined;
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const w of waiting.splice(0)) w();
  };
  const take = (): Due[] | undefined => {
    let best = -1;
    for (const [i, q] of ready.entries())
      if (!busy.has(q[0]!.channelId) && (best < 0 || total(q) > total(ready[best]!))) best = i;
    return best < 0 ? undefined : ready.splice(best, 1)[0];
  };
  const worker = async () => {
    while (!failure) {
      const next = take();
      if (!next) {
        if (closed && ready.length === 0) return;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      busy.add(next[0]!.channelId);
      try {
        for (const d of next) await send(d);
      } catch (err) {
        failure ??= { err };
      } finally {
        busy.delete(next[0]!.channelId);
        wake();
      }
    }
  };
  const workers = Array.from({ length: CHANNELS_AT_ONCE }, worker);
  return {
    add(d: Due) {
      const q = ready.find((x) => x[0]!.channelId === d.channelId);
      if (q) q.push(d);
      else ready.push([d]);
      wake();
    },
    async close() {
      closed = true;
      wake();
      await Promise.all(workers);
      if (failure) throw failure.err;
    },
  };
}

const total = (q: Due[]) => q.reduce((n, d) => n + d.parts, 0);

/** Runs `fn` over the items, at most `limit` at once; after a failure no new item starts, and the first failure is thrown once all running ones end. */
export async function eachAtMost<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.err;
}
