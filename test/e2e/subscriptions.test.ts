import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'discord.js';
import { eq } from 'drizzle-orm';
import { guilds, notificationsSent, papers, paperVersions, subscribers, versionNotices } from '../../db/schema.ts';
import { diffNewVersions, TEXT_WAIT_DAYS } from '../../jobs/diff-versions.ts';
import { sendVersionNotices } from '../../src/services/outbox/version-notices.ts';
import { notifySubscribers } from '../../src/services/outbox/notices.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { startBot, type Bot } from '../../src/app.ts';
import { createTestDb } from '../helpers/db.ts';
import {
  APP_ID,
  CHANNEL_ID,
  GUILD_ID,
  OTHER_CHANNEL_ID,
  PERMISSIONS,
  startFakeDiscord,
  type FakeDiscord,
  type RecordedRequest,
} from '../fakes/discord.ts';

/**
 * Subscriptions end to end: users subscribe with the real slash command through the real
 * discord.js client, and the notify job delivers through the bot's Discord notifier to the fake
 * Discord: a DM (open the DM channel, then post in it), and a refused DM (50007) falling back to a
 * mention in the server's notification channel that may ping that user and nobody else.
 */
const clientOptions: Partial<ClientOptions> = {
  waitGuildTimeout: 300,
  rest: { retries: 0, timeout: 5000 },
  ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
};

const READER = '700000000000000101';
const CLOSED_DMS = '700000000000000102';
const ROLE_ID = '400000000000000077';

describe('subscriptions through a fake Discord', () => {
  let fake: FakeDiscord;
  let app: App;
  let bot: Bot;
  let t: Awaited<ReturnType<typeof createTestDb>>;

  beforeAll(async () => {
    fake = await startFakeDiscord({ extraRoles: [{ id: ROLE_ID, name: 'RL readers' }] });
    t = await createTestDb();
    const config = loadConfig({
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      LOG_LEVEL: 'silent',
    });
    app = await createApp(config, { log: pino({ level: 'silent' }) });
    bot = await startBot(app, { jobs: () => [], clientOptions });
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('subscribes with /subscribe, answering only the user', async () => {
    for (const userId of [READER, CLOSED_DMS]) {
      const i = fake.sendChatInput({ name: 'subscribe', options: { family: 'dapo' }, userId });
      expect(await fake.waitForAnswer(i)).toMatchObject({
        flags: 64,
        content: expect.stringMatching(/Subscribed to `family:DAPO`/),
        allowed_mentions: { parse: [] },
      });
    }
    const complete = fake.sendAutocomplete({
      name: 'unsubscribe',
      options: { subscription: 'dap' },
      focused: 'subscription',
      userId: READER,
    });
    expect((await fake.waitForResponse(complete)).body.data.choices).toEqual([
      { name: 'family:DAPO', value: 'family:DAPO' },
    ]);
  });

  it('takes a channel for mentions only where the member and the bot may both post (Discord resolves the permissions)', async () => {
    const VIEW = 1024n;
    const SEND = 2048n;
    const EMBED = 16384n;
    const choose = (permissions: bigint, appPermissions: bigint) =>
      fake.sendChatInput({
        name: 'subscriptions',
        options: { mode: 'channel', channel: OTHER_CHANNEL_ID },
        channels: { [OTHER_CHANNEL_ID]: { permissions: String(permissions), appPermissions: String(appPermissions) } },
        userId: READER,
      });
    const answer = async (i: ReturnType<typeof choose>) => String((await fake.waitForResponse(i)).body.data.content);
    // A read-only channel (the member may only read): refused, nothing saved.
    expect(await answer(choose(VIEW, VIEW | SEND | EMBED))).toMatch(/You cannot post in <#\d+>/);
    // The member may post, the bot may not (no Send Messages, then no Embed Links).
    expect(await answer(choose(VIEW | SEND, VIEW))).toMatch(/I am not allowed to post in <#\d+>/);
    expect(await answer(choose(VIEW | SEND, VIEW | SEND))).toMatch(/I am not allowed to post in/);
    const [before] = await t.db.select().from(subscribers).where(eq(subscribers.userId, READER));
    expect(before?.channelId ?? null).toBeNull();
    expect(await answer(choose(VIEW | SEND, VIEW | SEND | EMBED))).toMatch(/Delivery settings saved/);
    const [after] = await t.db.select().from(subscribers).where(eq(subscribers.userId, READER));
    expect(after).toMatchObject({ mode: 'channel', channelId: OTHER_CHANNEL_ID });
    await t.db.update(subscribers).set({ mode: 'dm', channelId: null }).where(eq(subscribers.userId, READER));
  });

  it('delivers a DM, and falls back to a mention of that user only when DMs are refused', async () => {
    await t.db.insert(guilds).values({ guildId: GUILD_ID, notifyChannelId: CHANNEL_ID });
    const newsAt = new Date(Date.now() + 1000); // after the subscriptions above
    await t.db.insert(papers).values({
      arxivId: '2611.79001',
      title: 'DAPO at scale: @everyone <@&400000000000000077> read this',
      titleKey: 'e2edapoatscale',
      abstract: 'Decoupled clipping and dynamic sampling, with verifiable rewards.',
      rulesFamily: true,
      rulesScore: 0.9,
      families: ['DAPO'],
      topics: ['algorithm'],
      newsAt,
    });
    fake.refuseDms(CLOSED_DMS);
    const now = new Date(newsAt.getTime() + 60_000);
    const counts = await notifySubscribers(
      { db: app.handle.db, log: app.log, now: () => now },
      { notifier: bot.notifier },
    );
    expect(counts).toMatchObject({ messages: 2, fallbacks: 1, failed: 0 });

    const opened = fake.requests.filter((r) => r.method === 'POST' && r.path === '/users/@me/channels');
    expect(opened.map((r) => r.body.recipient_id).sort()).toEqual([READER, CLOSED_DMS]);
    const dmOf = (userId: string) => [...fake.dmChannels].find(([, u]) => u === userId)![0];
    const postsTo = (channelId: string) =>
      fake.requests.filter((r: RecordedRequest) => r.method === 'POST' && r.path === `/channels/${channelId}/messages`);

    const [dm] = postsTo(dmOf(READER));
    expect(dm).toMatchObject({ status: 200, auth: 'Bot fake-token' });
    expect(dm!.body).toMatchObject({ enforce_nonce: true, allowed_mentions: { parse: [] } });
    expect(dm!.body.embeds[0].title).toMatch(/^DAPO at scale/);

    expect(postsTo(dmOf(CLOSED_DMS)).map((r) => r.status)).toEqual([403]);
    const [mention] = postsTo(CHANNEL_ID);
    expect(mention!.status).toBe(200);
    expect(mention!.body.allowed_mentions).toEqual({ parse: [], users: [CLOSED_DMS] });
    expect(mention!.body.content).toMatch(new RegExp(`^<@${CLOSED_DMS}> `));
    expect(mention!.body.embeds[0].title).not.toMatch(/@everyone/); // neutralised, and not allowed anyway

    const rows = await t.db.select().from(notificationsSent);
    expect(rows.map((r) => [r.userId, r.status, r.via]).sort()).toEqual([
      [READER, 'sent', 'dm'],
      [CLOSED_DMS, 'sent', 'channel'],
    ]);

    // A second run sends nothing more.
    const before = fake.requests.length;
    expect(
      await notifySubscribers({ db: app.handle.db, log: app.log, now: () => now }, { notifier: bot.notifier }),
    ).toMatchObject({ messages: 0 });
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it("tells the family's followers of a meaningful new version once, and shows it on the card", async () => {
    const [paper] = await t.db.select().from(papers).where(eq(papers.arxivId, '2611.79001'));
    const abstract = 'Decoupled clipping and dynamic sampling, with verifiable rewards.';
    const version = (v: number, text: string) => ({
      paperId: paper!.id,
      version: v,
      title: paper!.title,
      abstract: text,
    });
    await t.db
      .insert(paperVersions)
      .values([
        version(1, abstract),
        { ...version(2, `${abstract} It reaches 50% on AIME25.`), announcedOn: '2026-11-20' },
      ]);
    await t.db.update(papers).set({ arxivVersion: 2 }).where(eq(papers.id, paper!.id));
    // arXiv has not served the new version's text for days: it is compared from its abstract.
    const later = new Date(Date.now() + (TEXT_WAIT_DAYS + 1) * 86_400_000);
    expect(await diffNewVersions({ ...app.deps, now: () => later })).toMatchObject({
      meaningful: 1,
      noticesPlanned: 2,
    });
    const before = fake.requests.length;
    const deps = { db: app.handle.db, log: app.log, now: () => later };
    expect(await sendVersionNotices(deps, { notifier: bot.notifier })).toEqual({ sent: 2, retrying: 0, failed: 0 });
    const posts = fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));
    const ok = posts.filter((r) => r.status === 200);
    expect(ok).toHaveLength(2);
    const note = 'v2 (2026-11-20): new AIME25 results';
    for (const p of ok) expect(p.body.content).toContain(note);
    const mention = ok.find((r) => r.path === `/channels/${CHANNEL_ID}/messages`)!;
    expect(mention.body.allowed_mentions).toEqual({ parse: [], users: [CLOSED_DMS] });
    expect(ok.find((r) => r !== mention)!.body.allowed_mentions).toEqual({ parse: [] });
    expect((await t.db.select().from(versionNotices)).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(await sendVersionNotices(deps, { notifier: bot.notifier })).toEqual({ sent: 0, retrying: 0, failed: 0 });

    const show = fake.sendChatInput({ name: 'paper', subcommand: 'show', options: { id: '2611.79001' } });
    const answer = await fake.waitForAnswer(show);
    const fields = (answer.embeds as { fields?: { name: string; value: string }[] }[])[0]!.fields!;
    expect(fields.find((f) => f.name === 'Latest version')?.value).toBe(note);
  });

  it('pings the role set with /digest setup ping_role on the digest, and nothing else', async () => {
    const setup = fake.sendChatInput({
      name: 'digest',
      subcommand: 'setup',
      permissions: PERMISSIONS.manager,
      options: { channel: OTHER_CHANNEL_ID, time: '00:00', timezone: 'UTC', ping_role: ROLE_ID },
    });
    expect((await fake.waitForResponse(setup)).body.data.flags).toBe(64);
    const counts = await deliverDigests(
      { db: app.handle.db, log: app.log, now: () => new Date(Date.now() + 120_000) },
      { poster: bot.poster, channelId: OTHER_CHANNEL_ID, force: true },
    );
    expect(counts).toMatchObject({ planned: 1, failed: 0, undeliverable: 0 });
    expect(counts.messages).toBeGreaterThan(0);
    const posts = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${OTHER_CHANNEL_ID}/messages`,
    );
    expect(posts[0]!.body.allowed_mentions).toEqual({ parse: [], roles: [ROLE_ID] });
    expect(posts[0]!.body.content).toContain(`<@&${ROLE_ID}>`);
  });
});
