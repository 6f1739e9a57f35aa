import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'discord.js';
import { runJob } from '../../jobs/index.ts';
import { refreshCitationsJob } from '../../jobs/refresh-citations.ts';
import { createApp, startBot, type App, type Bot } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createTestDb } from '../helpers/db.ts';
import { APP_ID, startFakeDiscord, type FakeDiscord } from '../fakes/discord.ts';
import { startFakeS2, type FakeS2 } from '../fakes/semantic-scholar.ts';

/**
 * Citation counts end to end: the refresh job against the fake Semantic Scholar (rate window
 * enforced) over the seed corpus, then the real discord.js client against the fake Discord shows
 * them on /paper show and their freshness on /status.
 */
const clientOptions: Partial<ClientOptions> = {
  waitGuildTimeout: 300,
  rest: { retries: 0, timeout: 5000 },
  ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
};

type Embed = { title?: string; fields?: { name: string; value: string }[] };
const fieldsOf = (answer: Record<string, unknown>) =>
  ((answer.embeds as Embed[] | undefined)?.[0]?.fields ?? []).map((f) => `${f.name}: ${f.value}`).join('\n');

describe('citation counts through a fake Discord', () => {
  let discord: FakeDiscord;
  let s2: FakeS2;
  let app: App;
  let bot: Bot;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    s2 = await startFakeS2({
      papers: { '2507.18071': { citationCount: 412, influentialCitationCount: 37 } },
      apiKey: 'fake-s2-key-123456',
    });
    const t = await createTestDb({ seeded: true });
    const config = loadConfig({
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: discord.api,
      S2_API_BASE: s2.base,
      S2_API_KEY: 'fake-s2-key-123456',
      LOG_LEVEL: 'silent',
    });
    app = await createApp(config, { log: pino({ level: 'silent' }), now: () => new Date('2026-11-28T07:30:00Z') });
    bot = await startBot(app, { jobs: () => [], clientOptions });
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await discord?.close();
    await s2?.close();
  });

  it('shows a refreshed count on /paper show, and the refresh on /status', async () => {
    const outcome = await runJob(refreshCitationsJob(), app.deps);
    expect(outcome).toMatchObject({ status: 'ok', stats: { found: 1, rateLimited: 0 } });
    expect(s2.violations).toBe(0);

    const card = await discord.waitForAnswer(
      discord.sendChatInput({ name: 'paper', subcommand: 'show', options: { id: '2507.18071' } }),
    );
    expect(fieldsOf(card)).toContain('Cited by 412 (37 influential) · as of 2026-11-28 (Semantic Scholar)');

    const state = await discord.waitForAnswer(discord.sendChatInput({ name: 'status' }));
    expect(fieldsOf(state)).toMatch(/Citations \(Semantic Scholar\): 1 of \d+ GRPO-family papers have counts/);
    expect(fieldsOf(state)).toMatch(/last refresh .* · ok/);
  });
});
