import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCommand } from '../../commands/index.ts';
import { subscribe } from '../../commands/subscribe.ts';
import { subscriptions, unsubscribe } from '../../commands/subscriptions.ts';
import { guilds, subscribers, userSubscriptions } from '../../db/schema.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import type { Command, CommandInput } from '../../src/core/command.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput, replyText } from './helpers.ts';

describe('/subscribe, /unsubscribe, /subscriptions', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const clock = new Date('2026-11-21T12:00:00Z');
  const deps = () => commandDeps(t.db, () => clock);
  const run = (command: Command, options: CommandInput['options'], userId = 'u1', over: Partial<CommandInput> = {}) =>
    runCommand(
      command,
      commandInput(undefined, options, { user: { id: userId, name: userId }, canManage: false, ...over }),
      deps(),
    );
  const rowsOf = (userId: string) => t.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
  const complete = (command: Command, name: string, value: string, userId = 'u1') =>
    command.autocomplete!(commandInput(undefined, {}, { user: { id: userId, name: userId } }), { name, value }, deps());

  beforeAll(async () => {
    t = await createTestDb();
  });

  it('are registered, and every answer is ephemeral', async () => {
    expect(findCommand('subscribe')).toBe(subscribe);
    expect(findCommand('unsubscribe')).toBe(unsubscribe);
    expect(findCommand('subscriptions')).toBe(subscriptions);
    for (const r of [
      await run(subscribe, {}),
      await run(subscriptions, {}),
      await run(unsubscribe, { subscription: 'keyword:x' }),
    ])
      expect(r.ephemeral).toBe(true);
  });

  it('subscribes to each kind, normalising the value', async () => {
    const topic = await run(subscribe, { topic: 'Exploration-Entropy' });
    expect(topic.ephemeral).toBe(true);
    expect(replyText(topic)).toMatch(/Subscribed to `topic:exploration-entropy`/);
    expect(replyText(topic)).toMatch(/by DM, at most 10 papers a day/);
    expect(replyText(await run(subscribe, { keyword: 'Clip-Higher', exclude: 'Diffusion,  image ' }))).toMatch(
      /`keyword:clip-higher` \(except `diffusion, image`\)/,
    );
    expect(replyText(await run(subscribe, { author: '  Zhihong   Shao' }))).toMatch(/`author:Zhihong Shao`/);
    expect(replyText(await run(subscribe, { family: 'dr grpo' }))).toMatch(/`family:Dr. GRPO`/);
    const rows = await rowsOf('u1');
    expect(rows.map((r) => `${r.kind}:${r.value}:${r.exclude ?? ''}`).sort()).toEqual([
      'author:Zhihong Shao:',
      'family:Dr. GRPO:',
      'keyword:clip-higher:diffusion, image',
      'topic:exploration-entropy:',
    ]);
    expect(rows.every((r) => r.guildId === 'g1' && r.createdAt.getTime() === clock.getTime())).toBe(true);
    const [subscriber] = await t.db.select().from(subscribers).where(eq(subscribers.userId, 'u1'));
    expect(subscriber).toMatchObject({ mode: 'dm', dailyCap: 10, guildId: 'g1' });
  });

  it('updates the exclusions of a keyword followed again, without a second row', async () => {
    const again = await run(subscribe, { keyword: 'clip-higher', exclude: 'video' });
    expect(replyText(again)).toMatch(/already follow `keyword:clip-higher`; its exclusions are now `video`/);
    const rows = (await rowsOf('u1')).filter((r) => r.kind === 'keyword');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.exclude).toBe('video');
    // Followed again as it is, or without its exclusions: the reply says what happened.
    expect(replyText(await run(subscribe, { keyword: 'clip-higher', exclude: 'video' }))).toMatch(
      /already follow `keyword:clip-higher`; nothing changed \(except `video`\)/,
    );
    expect(replyText(await run(subscribe, { keyword: 'clip-higher' }))).toMatch(
      /its exclusions \(`video`\) are removed/,
    );
    expect(replyText(await run(subscribe, { keyword: 'clip-higher' }))).toMatch(/; nothing changed\./);
  });

  it('refuses anything but exactly one of topic, keyword, author or family, and bad values, saying what to do', async () => {
    const cases: [CommandInput['options'], RegExp][] = [
      [{}, /exactly one of topic, keyword, author or family/],
      [{ topic: 'algorithm', keyword: 'kl' }, /exactly one.*you gave topic and keyword/],
      [{ author: 'A. Author', exclude: 'x' }, /exclude only works with keyword/],
      [{ topic: 'cooking' }, /not a topic.*\/topics/],
      [{ family: 'XYZPO' }, /not a GRPO-family name/],
      [{ keyword: '!' }, /two letters/],
      [{ keyword: 'the' }, /in nearly every paper/],
      [{ keyword: 'Of The' }, /in nearly every paper/],
      [{ keyword: 'x'.repeat(101) }, /too long/],
    ];
    for (const [options, message] of cases) {
      const r = await run(subscribe, options, 'u9');
      expect(r.ephemeral).toBe(true);
      expect(r.content).toMatch(message);
    }
    expect(await rowsOf('u9')).toEqual([]);
  });

  it("autocompletes topics, families and the user's own subscriptions", async () => {
    expect((await complete(subscribe, 'topic', 'entro')).map((c) => c.value)).toEqual(['exploration-entropy']);
    expect((await complete(subscribe, 'family', 'grpo')).map((c) => c.value)).toContain('Dr. GRPO');
    expect((await complete(subscribe, 'family', '')).length).toBeLessThanOrEqual(25);
    const mine = (await complete(unsubscribe, 'subscription', '')).map((c) => c.value);
    expect(mine.sort()).toEqual([
      'author:Zhihong Shao',
      'family:Dr. GRPO',
      'keyword:clip-higher',
      'topic:exploration-entropy',
    ]);
    expect((await complete(unsubscribe, 'subscription', 'clip')).map((c) => c.value)).toEqual(['keyword:clip-higher']);
    expect(await complete(unsubscribe, 'subscription', '', 'someone-else')).toEqual([]);
  });

  it('unsubscribes by the autocompleted value, and says so when there is nothing to remove', async () => {
    const r = await run(unsubscribe, { subscription: 'keyword:clip-higher' });
    expect(r.content).toMatch(/no longer follow `keyword:clip-higher`.*still follow 3 others/);
    expect((await rowsOf('u1')).map((x) => x.kind).sort()).toEqual(['author', 'family', 'topic']);
    const missing = await run(unsubscribe, { subscription: 'keyword:clip-higher' });
    expect(missing).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/do not follow `keyword:clip-higher`.*You follow: /),
    });
    // A bare value works when it is unambiguous; another user's subscriptions are never touched.
    await run(subscribe, { family: 'DAPO' }, 'u2');
    expect((await run(unsubscribe, { subscription: 'DAPO' }, 'u1')).content).toMatch(/do not follow/);
    expect((await run(unsubscribe, { subscription: 'dapo' }, 'u2')).content).toMatch(
      /no longer follow `family:DAPO`.*follow nothing now/,
    );
  });

  it('lists subscriptions and delivery settings', async () => {
    const r = await run(subscriptions, {});
    expect(r.ephemeral).toBe(true);
    expect(r.embeds![0]!.title).toBe('Your subscriptions (3)');
    expect(replyText(r)).toMatch(/`topic:exploration-entropy`/);
    expect(replyText(r)).toMatch(/by DM, at most 10 papers a day/);
    expect(replyText(await run(subscriptions, {}, 'nobody'))).toMatch(/follow nothing yet/);
  });

  it('sets the mode, the channel and the daily cap', async () => {
    const cap = await run(subscriptions, { daily_cap: 3 });
    expect(replyText(cap)).toMatch(/Delivery settings saved[\s\S]*at most 3 papers a day/);
    // Channel mode needs a channel: the user's own, or the server's notification channel.
    expect((await run(subscriptions, { mode: 'channel' })).content).toMatch(/needs a channel/);
    await t.db.insert(guilds).values({ guildId: 'g1', notifyChannelId: '555' });
    expect(replyText(await run(subscriptions, { mode: 'channel' }))).toMatch(/mention in <#555>/);
    expect(replyText(await run(subscriptions, { channel: '<#777>' }))).toMatch(/mention in <#777>/);
    expect(replyText(await run(subscriptions, { mode: 'dm' }))).toMatch(
      /by DM.*if your DMs are closed, a mention in <#777>/,
    );
    expect(replyText(await run(subscriptions, { mode: 'off' }))).toMatch(/Delivery is \*\*off\*\*/);
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.userId, 'u1'));
    expect(row).toMatchObject({ mode: 'off', channelId: '777', dailyCap: 3 });
    expect((await run(subscriptions, { mode: 'weekly' })).content).toMatch(/must be one of: dm, channel, off/);
    expect((await run(subscriptions, { daily_cap: 0 })).content).toMatch(/between 1 and 50/);
  });

  it('refuses a channel the member or the bot may not post in, or one the platform could not check, saving nothing', async () => {
    const rights = (memberCanPost: boolean, botCanPost: boolean | null) => ({
      resolved: { channels: { '888': { memberCanPost, botCanPost } } },
    });
    const pick = (over: Partial<CommandInput>) => run(subscriptions, { mode: 'channel', channel: '888' }, 'u9', over);
    expect((await pick(rights(false, true))).content).toMatch(/You cannot post in <#888>/);
    expect((await pick(rights(true, false))).content).toMatch(/I am not allowed to post in <#888>/);
    expect((await pick(rights(true, null))).content).toMatch(/I am not allowed to post in <#888>/);
    expect((await pick({ resolved: { roles: {} } })).content).toMatch(/could not check <#888>/);
    expect(await t.db.select().from(subscribers).where(eq(subscribers.userId, 'u9'))).toEqual([]);
    expect(replyText(await pick(rights(true, true)))).toMatch(/mention in <#888>/);
  });
});
