import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'discord.js';
import { commands } from '../../commands/index.ts';
import { appState, channels, deliveries, guilds, papers, votes } from '../../db/schema.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';
import type { OutboxPayload } from '../../db/queries/deliveries.ts';
import { createApp, type App } from '../../src/app.ts';
import type { Command } from '../../src/core/command.ts';
import { customIdCodec } from '../../src/core/custom-id.ts';

const pagerId = customIdCodec('e2e-pager', 'page', { page: 'int' });
import { loadConfig, type Config } from '../../src/core/config.ts';
import { DeliveryError } from '../../src/core/delivery/poster.ts';
import { startBot, type Bot } from '../../src/app.ts';
import { COMMANDS_HASH_KEY } from '../../src/adapters/discord/register.ts';
import { GENERIC_ERROR } from '../../src/core/dispatch.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import { createTestDb } from '../helpers/db.ts';
import {
  APP_ID,
  CHANNEL_ID,
  GUILD_ID,
  MODERATOR_ROLE_ID,
  OTHER_CHANNEL_ID,
  PERMISSIONS,
  startFakeDiscord,
  WEEKLY_CHANNEL_ID,
  type FakeDiscord,
  type RecordedRequest,
} from '../fakes/discord.ts';
import { readPng } from '../helpers/png.ts';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { queueItems } from '../../db/schema.ts';

/**
 * The real discord.js client, through the real start-up (createApp on a test database, startBot),
 * against the fake Discord in test/fakes/discord.ts. Assertions are on the requests the fake
 * recorded and on the database. Besides the real commands, a few test-local commands exercise what
 * the router must handle whatever the commands do: a slow answer, a permission check, a button, a bug.
 */
const testCommands: Command[] = [
  {
    definition: {
      name: 'e2e-slow',
      description: 'A slow answer',
      options: [{ name: 'fail', description: 'Refuse instead', type: 'boolean' }],
    },
    slow: true,
    async execute(input) {
      if (input.options.fail) throw new UserFacingError('That did not work: try another value.');
      return { embeds: [{ title: 'Slow answer', description: 'ready' }] };
    },
  },
  {
    definition: { name: 'e2e-config', description: 'Needs Manage Server', defaultMemberPermissions: '32' },
    async execute(input) {
      if (!input.canManage) throw new UserFacingError('Changing the digest needs Manage Server or the moderator role.');
      return { content: `configured by ${input.user.id}` };
    },
  },
  {
    definition: { name: 'e2e-pager', description: 'Pages with buttons' },
    async execute() {
      return {
        content: 'page 1',
        components: [[{ kind: 'action', customId: pagerId.encode({ page: 2 }), label: 'Next', style: 'primary' }]],
      };
    },
    async component(input) {
      return {
        update: true,
        content: `page ${pagerId.decode(input.customId)?.page}`,
        components: [[{ kind: 'link', url: 'https://arxiv.org', label: 'arXiv' }]],
      };
    },
  },
  {
    definition: { name: 'e2e-bug', description: 'Throws a bug' },
    async execute() {
      throw new Error('boom: a bug in a command');
    },
  },
];
/** Answers only when the test releases it: shows that any answer not ready in time is deferred, slow or not. */
let release: (() => void) | undefined;
testCommands.push({
  definition: { name: 'e2e-late', description: 'Answers when released' },
  async execute() {
    await new Promise<void>((resolve) => (release = resolve));
    return { content: 'late but here' };
  },
});
const allCommands = [...commands, ...testCommands];

const clientOptions: Partial<ClientOptions> = {
  waitGuildTimeout: 300,
  rest: { retries: 0, timeout: 5000 },
  ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
};

async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const isPut = (r: RecordedRequest) => r.method === 'PUT' && r.path === `/applications/${APP_ID}/commands`;

describe('the Discord bot against a fake Discord', () => {
  let fake: FakeDiscord;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let config: Config;
  let app: App;
  let bot: Bot;
  const start = async () => {
    app = await createApp(config, { log: pino({ level: 'silent' }) });
    // Answers are deferred after 5 s, not the 1 s default: on a loaded machine a plain command could
    // otherwise be deferred, and the tests that read its immediate reply would fail for speed alone.
    bot = await startBot(app, { commands: allCommands, jobs: () => [], clientOptions, deferAfterMs: 5_000 });
  };

  beforeAll(async () => {
    fake = await startFakeDiscord();
    t = await createTestDb();
    config = loadConfig({
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: fake.api,
      LOG_LEVEL: 'silent',
    });
    await start(); // imports the seed corpus on first start, like production
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('logs in through the fake gateway, with the Guilds intent only, and sees the server', () => {
    expect(bot.client.isReady()).toBe(true);
    expect(bot.client.guilds.cache.has(GUILD_ID)).toBe(true);
    const identify = fake.gateway.find((p) => p.op === 2);
    expect(identify?.d).toMatchObject({ token: 'fake-token', intents: 1 });
    expect(fake.requests.find((r) => r.path === '/gateway/bot')?.auth).toBe('Bot fake-token');
  });

  it('registers the commands once at start-up, as chat-input JSON, and records the hash', async () => {
    const puts = fake.requests.filter(isPut);
    expect(puts).toHaveLength(1);
    const body = puts[0]!.body as {
      name: string;
      type: number;
      options: { type: number; name: string }[];
      default_member_permissions: string | null;
    }[];
    expect(body.map((c) => c.name)).toEqual(allCommands.map((c) => c.definition.name));
    const paper = body.find((c) => c.name === 'paper')!;
    expect(paper.type).toBe(1);
    expect(paper.options.every((o) => o.type === 1)).toBe(true);
    expect(body.find((c) => c.name === 'e2e-config')!.default_member_permissions).toBe('32');
    const [row] = await t.db.select().from(appState).where(eq(appState.key, COMMANDS_HASH_KEY));
    expect(row?.value).toMatchObject({ guildId: null, count: allCommands.length });
  });

  it('answers /paper show with the paper card, pinging no one', async () => {
    const i = fake.sendChatInput({ name: 'paper', subcommand: 'show', options: { id: '2507.18071' } });
    const callback = await fake.waitForResponse(i);
    expect(callback.auth).toBeNull(); // interaction callbacks are not bot-authenticated
    expect(callback.body.type).toBe(4);
    expect(callback.body.data.embeds[0].title).toMatch(/Group Sequence Policy Optimization/i);
    expect(callback.body.data.allowed_mentions).toEqual({ parse: [] });
    expect(callback.body.data.flags ?? 0).toBe(0);
  });

  it('answers a user mistake ephemerally, with what to do', async () => {
    const i = fake.sendChatInput({ name: 'paper', subcommand: 'show', options: { id: '9999.bad' } });
    const callback = await fake.waitForResponse(i);
    expect(callback.body.data).toMatchObject({ flags: 64 });
    expect(callback.body.data.content).toMatch(/arXiv id|not in the corpus|No paper/);
  });

  it('defers a slow command and edits the answer in', async () => {
    const i = fake.sendChatInput({ name: 'e2e-slow' });
    const edit = await fake.waitForResponse(i, (r) => r.method === 'PATCH');
    const [callback] = fake.responsesTo(i);
    expect(callback!.body).toMatchObject({ type: 5 });
    expect(edit.path).toBe(`/webhooks/${APP_ID}/${i.token}/messages/@original`);
    expect(edit.body.embeds[0].title).toBe('Slow answer');
    expect(edit.body.allowed_mentions).toEqual({ parse: [] });
  });

  it('defers any answer that is not ready in time, even from a command not marked slow', async () => {
    const i = fake.sendChatInput({ name: 'e2e-late' });
    expect((await fake.waitForResponse(i)).body).toMatchObject({ type: 5 });
    release!();
    const edit = await fake.waitForResponse(i, (r) => r.method === 'PATCH');
    expect(edit.body.content).toBe('late but here');
  });

  it('replaces a public placeholder by an ephemeral follow-up when a slow command refuses', async () => {
    const i = fake.sendChatInput({ name: 'e2e-slow', options: { fail: true } });
    const followUp = await fake.waitForResponse(
      i,
      (r) => r.method === 'POST' && r.path === `/webhooks/${APP_ID}/${i.token}`,
    );
    expect(fake.responsesTo(i).map((r) => r.method)).toEqual(['POST', 'DELETE', 'POST']);
    expect(followUp.body).toMatchObject({ flags: 64, content: 'That did not work: try another value.' });
  });

  it('answers autocomplete with at most 25 choices of at most 100 characters', async () => {
    const i = fake.sendAutocomplete({
      name: 'paper',
      subcommand: 'show',
      options: { id: 'sequence policy' },
      focused: 'id',
    });
    const callback = await fake.waitForResponse(i);
    expect(callback.body.type).toBe(8);
    const choices = callback.body.data.choices as { name: string; value: string }[];
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.length).toBeLessThanOrEqual(25);
    expect(choices.every((c) => c.name.length <= 100 && c.value.length <= 100)).toBe(true);
    expect(choices.map((c) => c.value)).toContain('2507.18071');
  });

  it('routes a button press to the command that owns it and updates the message', async () => {
    const first = fake.sendChatInput({ name: 'e2e-pager' });
    const reply = await fake.waitForResponse(first);
    expect(reply.body.data.components).toEqual([
      { type: 1, components: [{ type: 2, style: 1, custom_id: 'e2e-pager:page:2', label: 'Next', disabled: false }] },
    ]);
    const press = fake.pressButton('e2e-pager:page:2');
    const update = await fake.waitForResponse(press);
    expect(update.body).toMatchObject({
      type: 7,
      data: {
        content: 'page 2',
        components: [{ type: 1, components: [{ type: 2, style: 5, url: 'https://arxiv.org', label: 'arXiv' }] }],
      },
    });
    const stale = fake.pressButton('gone:1');
    expect((await fake.waitForResponse(stale)).body).toMatchObject({ type: 4, data: { flags: 64 } });
  });

  it("counts a press of a digest's vote button once, privately, and a second press takes it back", async () => {
    const [gspo] = await t.db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2507.18071'));
    const first = await fake.waitForResponse(fake.pressButton(`vote:${gspo!.id}`));
    expect(first.body).toMatchObject({
      type: 4,
      data: {
        flags: 64,
        content: expect.stringMatching(
          /^You nominated \*\*Group Sequence Policy Optimization\*\* for the reading group and voted for it: 1 vote\./,
        ),
      },
    });
    const again = await fake.waitForResponse(fake.pressButton(`vote:${gspo!.id}`));
    expect(again.body.data.content).toMatch(/taken back|removed|withdrawn/i);
    expect(await t.db.select().from(votes)).toHaveLength(0);
  });

  it('refuses a configuration command to a member without Manage Server, and decides it server side', async () => {
    const refused = fake.sendChatInput({
      name: 'e2e-config',
      permissions: PERMISSIONS.member,
      userId: '700000000000000010',
    });
    expect((await fake.waitForResponse(refused)).body.data).toMatchObject({
      flags: 64,
      content: expect.stringMatching(/Manage Server/),
    });

    const manager = fake.sendChatInput({
      name: 'e2e-config',
      permissions: PERMISSIONS.manager,
      userId: '700000000000000011',
    });
    expect((await fake.waitForResponse(manager)).body.data).toMatchObject({
      content: 'configured by 700000000000000011',
    });

    // The server's moderator role counts too, once configured.
    const notYet = fake.sendChatInput({ name: 'e2e-config', roles: [MODERATOR_ROLE_ID], userId: '700000000000000012' });
    expect((await fake.waitForResponse(notYet)).body.data.flags).toBe(64);
    await t.db.insert(guilds).values({ guildId: GUILD_ID, moderatorRoleId: MODERATOR_ROLE_ID });
    const moderator = fake.sendChatInput({
      name: 'e2e-config',
      roles: [MODERATOR_ROLE_ID],
      userId: '700000000000000012',
    });
    expect((await fake.waitForResponse(moderator)).body.data).toMatchObject({
      content: 'configured by 700000000000000012',
    });
  });

  it('answers a bug with a generic ephemeral message and keeps running', async () => {
    const i = fake.sendChatInput({ name: 'e2e-bug' });
    expect((await fake.waitForResponse(i)).body.data).toMatchObject({ flags: 64, content: GENERIC_ERROR });
    const after = fake.sendChatInput({ name: 'paper', subcommand: 'latest', options: { count: 2 } });
    expect((await fake.waitForResponse(after)).body.type).toBe(4);
  });

  it('posts a digest through the real poster with a nonce Discord enforces, pinging only the opted-in role', async () => {
    const roleId = '400000000000000099';
    await t.db
      .insert(channels)
      .values({ channelId: CHANNEL_ID, guildId: GUILD_ID, postTime: '08:00', timezone: 'UTC', pingRoleId: roleId });
    await t.db.insert(papers).values(
      [1, 2].map((n) => ({
        arxivId: `2611.7000${n}`,
        title: `GRPO variant ${n}: @everyone <@&${MODERATOR_ROLE_ID}>`,
        titleKey: `e2egrpovariant${n}`,
        abstract: `Variant ${n} normalises advantages per group and trains with verifiable rewards.`,
        rulesFamily: true,
        rulesScore: 0.9,
        families: ['GRPO'],
        topics: ['algorithm'],
        newsAt: new Date('2026-11-22T06:20:00Z'),
      })),
    );
    const now = new Date('2026-11-22T08:01:00Z');
    const counts = await deliverDigests(
      { db: app.handle.db, log: app.log, now: () => now },
      { poster: bot.poster, channelId: CHANNEL_ID },
    );
    expect(counts).toMatchObject({ planned: 1, failed: 0, undeliverable: 0 });
    expect(counts.messages).toBeGreaterThan(0);

    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${CHANNEL_ID}/messages`);
    expect(posts).toHaveLength(counts.messages);
    const rows = await t.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.channelId, CHANNEL_ID), eq(deliveries.status, 'sent')));
    expect(rows).toHaveLength(counts.messages);
    for (const post of posts) {
      expect(post.auth).toBe('Bot fake-token');
      expect(post.body.enforce_nonce).toBe(true);
      expect(rows.map((r) => r.nonce)).toContain(post.body.nonce);
      expect(post.body.allowed_mentions).toEqual({ parse: [], roles: [roleId] });
    }
    const titles = posts.flatMap((p) => (p.body.embeds as { title?: string }[]).map((e) => e.title ?? ''));
    expect(titles.filter((x) => x.startsWith('GRPO variant'))).toHaveLength(2);
    expect(rows.map((r) => r.messageId).sort()).toEqual(
      fake.messages
        .filter((m) => m.channelId === CHANNEL_ID)
        .map((m) => m.id)
        .sort(),
    );

    // A part re-sent after a crash carries the same nonce: Discord returns the first message, nothing is posted twice.
    const first = rows[0]!;
    const again = await bot.poster.send(CHANNEL_ID, { content: 'retry' }, { nonce: first.nonce });
    expect(again.messageId).toBe(first.messageId);
    expect(fake.messages.filter((m) => m.channelId === CHANNEL_ID)).toHaveLength(counts.messages);

    // Past Discord's nonce window only the channel can tell: every part is found there by what it shows, nothing else is.
    fake.forgetNonces();
    for (const row of rows) {
      const { reply } = row.payload as OutboxPayload;
      expect(await bot.poster.findSent(CHANNEL_ID, reply, { nonce: row.nonce })).toEqual({ messageId: row.messageId });
    }
    const { reply } = rows[0]!.payload as OutboxPayload;
    expect(
      await bot.poster.findSent(CHANNEL_ID, { ...reply, content: 'another day' }, { nonce: 'e2e-never' }),
    ).toBeNull();
  });

  it('opens a discussion thread on each paper in a thread-per-paper channel', async () => {
    await t.db.insert(channels).values({
      channelId: OTHER_CHANNEL_ID,
      guildId: GUILD_ID,
      postTime: '08:00',
      timezone: 'UTC',
      threadPerPaper: true,
    });
    const now = new Date('2026-11-22T08:02:00Z');
    const counts = await deliverDigests(
      { db: app.handle.db, log: app.log, now: () => now },
      { poster: bot.poster, channelId: OTHER_CHANNEL_ID },
    );
    expect(counts).toMatchObject({ messages: 2, failed: 0 });
    const posted = fake.messages.filter((m) => m.channelId === OTHER_CHANNEL_ID);
    const threads = fake.requests.filter(
      (r) => r.method === 'POST' && /^\/channels\/\d+\/messages\/\d+\/threads$/.test(r.path),
    );
    expect(threads.map((r) => r.path).sort()).toEqual(
      posted.map((m) => `/channels/${OTHER_CHANNEL_ID}/messages/${m.id}/threads`).sort(),
    );
    expect(threads.map((r) => r.body.name as string).sort()).toEqual(
      posted.map((m) => (m.body.embeds as { title: string }[])[0]!.title).sort(),
    );
  });

  it('answers /family tree with the picture uploaded as a multipart attachment that the embed shows', async () => {
    const i = fake.sendChatInput({ name: 'family', subcommand: 'tree', options: { family: 'GSPO' } });
    // Drawn within the second, or deferred and edited in: either way, one request carries the file.
    const answer = await fake.waitForResponse(i, (r) => r.files.length > 0);
    const data = answer.path.endsWith('/callback') ? answer.body.data : answer.body;
    expect(data.embeds[0]).toMatchObject({
      title: 'GRPO family tree: GSPO',
      image: { url: 'attachment://family-tree-gspo.png' },
    });
    // discord.js names each file in its form part; the body's attachments carry the alt text.
    expect(data.attachments).toEqual([
      { id: '0', description: expect.stringMatching(/^The GRPO family tree: .*GSPO is highlighted/) },
    ]);
    expect(answer.files.map((f) => [f.field, f.name, f.contentType])).toEqual([
      ['files[0]', 'family-tree-gspo.png', 'image/png'],
    ]);
    expect(readPng(answer.files[0]!.data)).toMatchObject({ width: 1000 });
    expect(data.embeds[0].description).toMatch(/^\*\*GSPO\*\* ◀ 2025 · \d+ members? · builds on GRPO$/m);
  });

  it('answers /paper cite with a BibTeX code block that parses, and an unknown id privately', async () => {
    const i = fake.sendChatInput({ name: 'paper', subcommand: 'cite', options: { id: '2507.18071' } });
    const callback = await fake.waitForResponse(i);
    const data = callback.body.data;
    expect(data.flags ?? 0).toBe(0);
    expect(data.allowed_mentions).toEqual({ parse: [] });
    expect(data.content.length).toBeLessThanOrEqual(2000);
    const block = /^```bibtex\n([\s\S]+)\n```$/.exec(data.content)?.[1];
    const lib = parseBibtex(block ?? '', { english: false });
    expect(lib.errors).toEqual([]);
    expect(lib.entries).toMatchObject([
      { type: 'misc', key: 'groupsequence2025', fields: { eprint: '2507.18071', archiveprefix: 'arXiv' } },
    ]);
    const unknown = await fake.waitForResponse(
      fake.sendChatInput({ name: 'paper', subcommand: 'cite', options: { id: '2511.99999' } }),
    );
    expect(unknown.body.data).toMatchObject({ flags: 64, content: expect.stringMatching(/not in the corpus yet/) });
  });

  it('attaches the reading-group history as a .bib file with /queue history bibtex:True', async () => {
    const [gspo] = await t.db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2507.18071'));
    // A session held on the paper an earlier test voted for.
    await t.db
      .insert(queueItems)
      .values({ guildId: GUILD_ID, paperId: gspo!.id, nominatedBy: 'u1', status: 'done', doneAt: new Date() })
      .onConflictDoUpdate({
        target: [queueItems.guildId, queueItems.paperId],
        set: { status: 'done', doneAt: new Date() },
      });
    const i = fake.sendChatInput({ name: 'queue', subcommand: 'history', options: { bibtex: true } });
    const answer = await fake.waitForResponse(i, (r) => r.files.length > 0);
    const data = answer.path.endsWith('/callback') ? answer.body.data : answer.body;
    expect(data.content).toMatch(/history as BibTeX: 1 paper/);
    expect(answer.files.map((f) => f.name)).toEqual(['reading-group-history.bib']);
    const lib = parseBibtex(Buffer.from(answer.files[0]!.data).toString('utf8'), { english: false });
    expect(lib.errors).toEqual([]);
    expect(lib.entries.map((e) => e.fields.eprint)).toEqual(['2507.18071']);
  });

  it('posts a weekly digest with its header picture on the first message, under the nonce Discord enforces', async () => {
    await t.db.insert(channels).values({
      channelId: WEEKLY_CHANNEL_ID,
      guildId: GUILD_ID,
      postTime: '08:00',
      timezone: 'UTC',
      cadence: 'weekly',
      weekday: 1,
      headerImage: true,
    });
    await t.db.insert(papers).values(
      ['GSPO', 'DAPO'].map((f, n) => ({
        arxivId: `2611.7100${n}`,
        title: `A weekly ${f} paper`,
        titleKey: `aweekly${f.toLowerCase()}paper`,
        abstract: `It builds on ${f} with verifiable rewards.`,
        rulesFamily: true,
        rulesScore: 0.9,
        families: [f, 'GRPO'],
        topics: ['algorithm'],
        newsAt: new Date('2026-11-20T06:20:00Z'),
      })),
    );
    const now = new Date('2026-11-23T08:01:00Z'); // a Monday
    const counts = await deliverDigests(
      { db: app.handle.db, log: app.log, now: () => now },
      { poster: bot.poster, channelId: WEEKLY_CHANNEL_ID },
    );
    expect(counts).toMatchObject({ planned: 1, failed: 0 });
    const posts = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${WEEKLY_CHANNEL_ID}/messages`,
    );
    expect(posts).toHaveLength(counts.messages);
    const [first, ...rest] = posts;
    expect(first!.files.map((f) => [f.name, f.contentType])).toEqual([['digest-week-2026-11-23.png', 'image/png']]);
    expect(readPng(first!.files[0]!.data).width).toBe(1000);
    expect(first!.body).toMatchObject({
      enforce_nonce: true,
      attachments: [
        {
          id: '0',
          description: expect.stringMatching(
            /^Bar chart of the week's \d+ GRPO-family papers by family: GRPO \d+, .*DAPO 1.*GSPO 1/,
          ),
        },
      ],
    });
    expect(first!.body.content).toMatch(/^GRPO weekly digest · 2026-11-23/);
    for (const r of rest) expect(r.files).toEqual([]);
    const [row] = await t.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.channelId, WEEKLY_CHANNEL_ID), eq(deliveries.part, 0)));
    expect(first!.body.nonce).toBe(row!.nonce);
    expect(fake.messages.find((m) => m.id === row!.messageId)!.files.map((f) => f.name)).toEqual([
      'digest-week-2026-11-23.png',
    ]);
  });

  it('waits out a 429 and then posts', async () => {
    fake.failNext(
      /^\/channels\/\d+\/messages$/,
      429,
      { message: 'You are being rate limited.', retry_after: 0.05, global: false },
      { 'retry-after': '0.05', 'x-ratelimit-scope': 'user' },
      'POST',
    );
    const before = fake.requests.length;
    const { messageId } = await bot.poster.send(CHANNEL_ID, { content: 'after the rate limit' }, { nonce: 'e2e-429' });
    const tried = fake.requests.slice(before).filter((r) => r.path === `/channels/${CHANNEL_ID}/messages`);
    expect(tried.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.messages.find((m) => m.id === messageId)?.body.content).toBe('after the rate limit');
  });

  it('maps Missing Access to a permanent delivery error and a 5xx to a transient one', async () => {
    fake.failNext(/^\/channels\/\d+\/messages$/, 403, { message: 'Missing Access', code: 50001 }, {}, 'POST');
    const lost = await bot.poster.send(CHANNEL_ID, { content: 'x' }, { nonce: 'e2e-403' }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(DeliveryError);
    expect(lost).toMatchObject({ permanent: true, message: expect.stringMatching(/50001/) });
    fake.failNext(/^\/channels\/\d+\/messages$/, 502, { message: 'Bad Gateway' }, {}, 'POST');
    const outage = await bot.poster.send(CHANNEL_ID, { content: 'x' }, { nonce: 'e2e-502' }).catch((e: unknown) => e);
    expect(outage).toMatchObject({ permanent: false });
    const gone = await bot.poster
      .send('300000000000000999', { content: 'x' }, { nonce: 'e2e-404' })
      .catch((e: unknown) => e);
    expect(gone).toMatchObject({ permanent: true, message: expect.stringMatching(/10003/) });
  });

  it('resumes the gateway session after a disconnect and still answers commands', async () => {
    const identifies = fake.gateway.filter((p) => p.op === 2).length;
    fake.disconnect();
    await waitUntil(() => fake.gateway.some((p) => p.op === 6), 'RESUME');
    const resume = fake.gateway.find((p) => p.op === 6)!;
    expect(resume.d).toMatchObject({ token: 'fake-token', session_id: expect.stringMatching(/^session-/) });
    expect(fake.gateway.filter((p) => p.op === 2)).toHaveLength(identifies); // resumed, not re-identified
    const i = fake.sendChatInput({ name: 'paper', subcommand: 'show', options: { id: '2507.18071' } });
    expect((await fake.waitForResponse(i)).body.type).toBe(4);
  });

  it('does not register again on a restart with the same definitions', async () => {
    await bot.stop();
    expect(bot.client.isReady()).toBe(false);
    await start();
    expect(bot.client.isReady()).toBe(true);
    expect(fake.requests.filter(isPut)).toHaveLength(1);
    const i = fake.sendChatInput({ name: 'paper', subcommand: 'latest' });
    expect((await fake.waitForResponse(i)).body.type).toBe(4);
  });
});
