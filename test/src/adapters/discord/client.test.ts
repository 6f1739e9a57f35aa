import { GatewayIntentBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/core/config.ts';
import { nextRunsOf } from '../../../../jobs/index.ts';
import { createDiscordClient } from '../../../../src/adapters/discord/client.ts';
import type { Job } from '../../../../jobs/index.ts';

describe('createDiscordClient', () => {
  it('asks for the Guilds intent only and pings no one by default', async () => {
    const client = createDiscordClient(loadConfig({}));
    expect(client.options.intents.toArray()).toEqual(['Guilds']);
    expect(client.options.intents.bitfield).toBe(GatewayIntentBits.Guilds);
    expect(client.options.allowedMentions).toEqual({ parse: [] });
    await client.destroy();
  });

  it('points REST at DISCORD_API_BASE, keeping test overrides', async () => {
    const client = createDiscordClient(loadConfig({ DISCORD_API_BASE: 'http://127.0.0.1:9/api' }), {
      rest: { retries: 0 },
    });
    expect(client.options.rest).toMatchObject({ api: 'http://127.0.0.1:9/api', retries: 0 });
    await client.destroy();
  });

  it('keeps no messages, and of the members and users who click only its own, however many there are', async () => {
    const client = createDiscordClient(loadConfig({}));
    const cacheOf = (name: string) =>
      client.options.makeCache!({ name } as never, undefined as never, { name } as never) as Map<string, unknown>;
    const self = { user: { id: 'bot' } };
    const messages = cacheOf('MessageManager');
    for (let i = 0; i < 50; i++) messages.set(String(i), { id: String(i), client: self });
    expect(messages.size).toBe(0);
    for (const name of ['GuildMemberManager', 'UserManager']) {
      const cache = cacheOf(name);
      cache.set('bot', { id: 'bot', client: self });
      for (let i = 0; i < 1_000; i++) cache.set(String(i), { id: String(i), client: self });
      expect(cache.has('bot')).toBe(true);
      expect(cache.size).toBeLessThanOrEqual(2);
    }
    await client.destroy();
  });

  it('runs DISCORD_SHARDS shards in this process', async () => {
    const auto = createDiscordClient(loadConfig({ DISCORD_SHARDS: 'auto' }));
    expect(auto.options.shards).toBe('auto');
    const three = createDiscordClient(loadConfig({ DISCORD_SHARDS: '3' }));
    expect(three.options.shards).toEqual([0, 1, 2]);
    expect(three.options.shardCount).toBe(3);
    await Promise.all([auto.destroy(), three.destroy()]);
    expect(() => loadConfig({ DISCORD_SHARDS: 'many' })).toThrow(/DISCORD_SHARDS/);
  });
});

describe('nextRunsOf', () => {
  it('gives each job its next run in UTC', () => {
    const jobs: Job[] = [
      { name: 'poll', schedule: (c) => c.pollCron, run: async () => ({}) },
      { name: 'post', schedule: '*/5 * * * *', run: async () => ({}) },
    ];
    const runs = nextRunsOf(jobs, { config: loadConfig({}), now: () => new Date('2026-11-21T07:02:30Z') })();
    expect(runs).toEqual({ poll: new Date('2026-11-22T06:15:00Z'), post: new Date('2026-11-21T07:05:00Z') });
  });
});
