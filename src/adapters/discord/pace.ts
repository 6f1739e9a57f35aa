import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultRestOptions, type RESTOptions } from 'discord.js';

/**
 * Bot requests a second this bot allows itself. Discord's global limit is 50; discord.js counts them
 * in its own one-second windows, which Discord's need not line up with, so a busy second can
 * straddle two of them and earn a global 429 (the fan-out benchmark saw some). Evenly spaced and a
 * little below 50, requests stay under the limit in any second, even when they bunch on the way.
 */
export const BOT_REQUESTS_PER_SECOND = 45;

type MakeRequest = RESTOptions['makeRequest'];

/**
 * The client's HTTP call, paced: bot-authenticated requests leave at least 1/`perSecond` s apart, in
 * the order they come. Interaction callbacks and webhooks carry no
 * bot token and are outside Discord's global limit, so they go at once: a busy digest never delays
 * an answer.
 */
export function pacedMakeRequest(
  perSecond = BOT_REQUESTS_PER_SECOND,
  make: MakeRequest = DefaultRestOptions.makeRequest,
): MakeRequest {
  const interval = 1000 / perSecond;
  let last = -Infinity;
  let queue: Promise<void> = Promise.resolve();
  // Spaced from when the previous request actually left, not from when it was due: a timer that
  // fires late (a busy process) must not let the next ones catch up in a burst.
  const slot = async () => {
    const wait = last + interval - performance.now();
    if (wait > 0) await sleep(wait);
    last = performance.now();
  };
  return async (url, init) => {
    const headers = init.headers as Record<string, string> | undefined;
    if (!headers?.Authorization) return make(url, init);
    const mine = queue.then(slot);
    queue = mine;
    await mine;
    return make(url, init);
  };
}
