import { describe, expect, it } from 'vitest';
import { pacedMakeRequest } from '../../../../src/adapters/discord/pace.ts';

type Make = Parameters<typeof pacedMakeRequest>[1];

describe('pacedMakeRequest', () => {
  it('sends bot requests one slot apart in the order they came, and lets interaction callbacks (no bot token) pass at once', async () => {
    const sent: string[] = [];
    const make = (async (url: string) => {
      sent.push(url);
      return new Response('{}');
    }) as unknown as Make;
    // Two a second: the second bot request waits half a second for its slot; the callback does not wait behind it.
    const paced = pacedMakeRequest(2, make);
    const bot = { headers: { Authorization: 'Bot x' } } as never;
    await Promise.all([
      paced('https://discord.test/bot/1', bot),
      paced('https://discord.test/bot/2', bot),
      paced('https://discord.test/callback', { headers: {} } as never),
    ]);
    expect(sent).toEqual(['https://discord.test/callback', 'https://discord.test/bot/1', 'https://discord.test/bot/2']);
  });
});
