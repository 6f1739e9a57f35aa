import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../commands/digest.ts';
import { channels, deliveries, papers } from '../../db/schema.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import type { CommandInput } from '../../src/core/command.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput, recordingPoster, replyText } from './helpers.ts';

describe('/digest', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const now = new Date('2026-11-21T12:00:00Z'); // 13:00 in Berlin
  const deps = (extra = {}) => commandDeps(t.db, () => now, extra);
  const run = (sub: string, options: CommandInput['options'], over: Partial<CommandInput> = {}, extra = {}) =>
    runCommand(digest, commandInput(sub, options, over), deps(extra));
  const channelRows = () => t.db.select().from(channels).orderBy(channels.channelId);
  const setupOptions = {
    channel: '100',
    time: '9:00',
    timezone: 'europe/berlin',
    topics: 'algorithm, math-code',
    max: 5,
    ping_role: '777',
  };

  beforeAll(async () => {
    t = await createTestDb();
    const paper = (n: number, family = true) => ({
      arxivId: `2611.0100${n}`,
      title: `Clipped group advantages ${n}`,
      titleKey: `clippedgroupadvantages${n}`,
      abstract: `Variant ${n} normalises advantages per group. It trains a 7B model with RLVR.`,
      rulesFamily: family,
      rulesScore: family ? 0.9 : 0.1,
      families: family ? ['GRPO'] : [],
      topics: ['algorithm'],
      newsAt: new Date('2026-11-21T06:20:00Z'),
    });
    await t.db.insert(papers).values([paper(1), paper(2), paper(3), paper(4, false)]);
  });

  it('refuses a bad time, zone, topic or max ephemerally and stores nothing', async () => {
    const cases: [CommandInput['options'], RegExp][] = [
      [{ ...setupOptions, time: '25:00' }, /24-hour time like 09:00/],
      [{ ...setupOptions, time: 'nine' }, /24-hour time/],
      [{ ...setupOptions, timezone: 'Mars/Olympus_Mons' }, /not an IANA time zone/],
      [
        { ...setupOptions, topics: 'algorithm,rlhf-magic' },
        /Unknown topic: rlhf-magic\. Topics: algorithm, reward-modeling/,
      ],
      [{ ...setupOptions, max: 30 }, /`max` in \/digest setup must be between 1 and 25/],
      [{ ...setupOptions, max: 0 }, /between 1 and 25/],
      [{ ...setupOptions, weekday: 3 }, /weekday is for weekly digests/],
      [{ ...setupOptions, cadence: 'hourly' }, /must be one of: daily, weekly/],
    ];
    for (const [options, message] of cases) {
      const reply = await run('setup', options);
      expect(reply.ephemeral, String(message)).toBe(true);
      expect(reply.content).toMatch(message);
    }
    expect(await channelRows()).toEqual([]);
  });

  it('refuses members who cannot manage the server, and changes nothing', async () => {
    for (const sub of ['setup', 'now', 'off']) {
      const reply = await run(
        sub,
        sub === 'setup' ? setupOptions : { channel: '100' },
        { canManage: false },
        { poster: recordingPoster() },
      );
      expect(reply).toMatchObject({
        ephemeral: true,
        content: expect.stringMatching(/Only members with Manage Server/),
      });
    }
    expect(await channelRows()).toEqual([]);
    expect(digest.definition.defaultMemberPermissions).toBe('32');
  });

  it('stores a setup with normalised values and shows it in /digest status', async () => {
    const reply = await run('setup', setupOptions);
    expect(reply.ephemeral).toBe(true);
    expect(replyText(reply)).toMatch(/daily at 09:00 Europe\/Berlin/);
    // 13:00 in Berlin: today's 09:00 has passed. Without a scheduler in this process (console), it says so.
    expect(replyText(reply)).toMatch(/due now \(today's 09:00 has passed.*\), but no scheduler runs in this process/);
    const scheduled = await run('status', { channel: '100' }, {}, { nextRuns: () => ({}) });
    expect(replyText(scheduled)).toMatch(/within 5 minutes/);
    const [row] = await channelRows();
    expect(row).toMatchObject({
      channelId: '100',
      guildId: 'g1',
      enabled: true,
      postTime: '09:00',
      timezone: 'Europe/Berlin',
      cadence: 'daily',
      weekday: null,
      topics: ['algorithm', 'math-code'],
      language: 'en',
      maxPapers: 5,
      minScore: 0,
      quietDay: 'nothing',
      pingRoleId: '777',
      threadPerPaper: false,
      createdBy: 'u1',
    });
    const status = replyText(await run('status', { channel: '<#100>' }, { canManage: false }));
    expect(status).toMatch(/State\non/);
    expect(status).toMatch(/algorithm, math-code/);
    expect(status).toMatch(/<@&777>/);
    expect(status).toMatch(/Last digest\nnone yet/);
  });

  it('says what to change when the ping role would not notify anyone (not mentionable, and the bot may not mention all roles)', async () => {
    const role = (mentionable: boolean, botMentionsAllRoles: boolean) => ({
      resolved: { roles: { 777: { name: 'papers', mentionable } }, botMentionsAllRoles },
    });
    const silent = replyText(await run('setup', { ...setupOptions, channel: '102' }, role(false, false)));
    expect(silent).toMatch(
      /⚠ The ping will not notify anyone\nThe digest will mention @papers, but Discord will not notify its members: the role is not mentionable and the bot lacks "Mention @everyone, @here and All Roles"\. Turn on "Allow anyone to @mention this role" \(Server Settings → Roles → papers\)/,
    );
    for (const ok of [role(true, false), role(false, true), {}]) {
      expect(replyText(await run('setup', { ...setupOptions, channel: '102' }, ok))).not.toContain('will not notify');
    }
  });

  it('opens a thread per paper when asked', async () => {
    await run('setup', { ...setupOptions, channel: '101', threads: true });
    expect((await channelRows()).find((r) => r.channelId === '101')).toMatchObject({ threadPerPaper: true });
    expect(replyText(await run('status', { channel: '101' }))).toMatch(/Threads\none per paper/);
  });

  it('says when a channel has no digest, and keeps other servers out', async () => {
    expect((await run('status', {})).content).toMatch(/No digest is set up for #c1/);
    // The channel that has one is named, and the suggestion sets one up here, not in a channel of the example.
    const here = (await run('status', {})).content!;
    expect(here).toMatch(/This server has one in <#100>.*add channel:<#100> to the command/);
    expect(here).toMatch(/Set one up here with \/digest setup channel:#c1 time:09:00/);
    expect((await run('status', { channel: '100' }, { guildId: 'g2' })).content).toMatch(/No digest is set up/);
    expect((await run('setup', setupOptions, { guildId: 'g2' })).content).toMatch(/belongs to another server/);
    expect((await run('status', { channel: '100' }, { guildId: undefined })).content).toMatch(
      /use \/digest in a server/,
    );
  });

  it('previews the next digest with its papers, ephemerally', async () => {
    const reply = await run('preview', { channel: '100' }, { canManage: false });
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toMatch(/Preview.*1 message, 3 papers/);
    expect(reply.embeds!.map((e) => e.title).sort()).toEqual([
      'Clipped group advantages 1',
      'Clipped group advantages 2',
      'Clipped group advantages 3',
    ]);
  });

  it('shows a labelled sample built from the latest GRPO-family papers when nothing is new', async () => {
    // A week later nothing is new in channel 100: the preview shows what a digest looks like instead of nothing.
    const later = commandDeps(t.db, () => new Date('2026-11-28T12:00:00Z'));
    const reply = await runCommand(digest, commandInput('preview', { channel: '100' }, { canManage: false }), later);
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toMatch(
      /^\*\*Sample, not the real digest\*\*: nothing is new for <#100> since .*, so this shows what a digest looks like with the 3 latest GRPO-family papers\. The real digest posts only papers that are new\./,
    );
    // The sample's own header line counts the latest papers; it never calls them new.
    expect(reply.content).toContain('a sample: the 3 latest GRPO-family papers, not new ones');
    expect(reply.content).not.toMatch(/\d+ new papers?/);
    expect(reply.embeds!.map((e) => e.title).sort()).toEqual([
      'Clipped group advantages 1',
      'Clipped group advantages 2',
      'Clipped group advantages 3',
    ]);
  });

  it('explains that posting needs Discord when there is no poster', async () => {
    const reply = await run('now', { channel: '100' });
    expect(reply).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/needs the bot running on Discord.*\/digest preview/),
    });
    expect(await t.db.select().from(deliveries)).toEqual([]);
  });

  it('posts the digest now, once: a second /digest now the same day posts nothing more', async () => {
    const poster = recordingPoster();
    const first = await run('now', { channel: '100' }, {}, { poster });
    expect(first.content).toMatch(/Posted 1 message to <#100>.*2026-11-21/);
    expect(poster.posted).toHaveLength(1);
    expect(poster.posted[0]!.channelId).toBe('100');
    expect(poster.posted[0]!.message.embeds).toHaveLength(3);
    const second = await run('now', { channel: '100' }, {}, { poster });
    expect(second.content).toMatch(/already out; nothing more was posted/);
    expect(poster.posted).toHaveLength(1);
    const status = replyText(await run('status', { channel: '100' }));
    expect(status).toMatch(/2026-11-21: 1 of 1 message sent/);
    expect(status).toMatch(/Next digest\n<t:\d+:f>.*2026-11-22 09:00 Europe\/Berlin/);
  });

  it('resumes a channel marked undeliverable when it is set up again', async () => {
    await t.db
      .update(channels)
      .set({ deliveryError: 'Discord 403: Missing Access', deliveryErrorAt: now })
      .where(eq(channels.channelId, '100'));
    expect(replyText(await run('status', { channel: '100' }))).toMatch(/Delivery error\nDiscord 403: Missing Access/);
    expect((await run('now', { channel: '100' }, {}, { poster: recordingPoster() })).content).toMatch(
      /cannot post in <#100>/,
    );
    await run('setup', setupOptions);
    const [row] = await channelRows();
    expect(row).toMatchObject({ deliveryError: null, deliveryErrorAt: null, enabled: true });
  });

  it('turns a digest off', async () => {
    const reply = await run('off', { channel: '100' });
    expect(reply.content).toMatch(/Digests in <#100> are off/);
    expect((await channelRows())[0]!.enabled).toBe(false);
    expect(replyText(await run('status', { channel: '100' }))).toMatch(/State\noff[\s\S]*digests are off here/);
    expect((await run('now', { channel: '100' }, {}, { poster: recordingPoster() })).content).toMatch(/are off/);
  });

  it('sets up weekly digests and names the next weekday', async () => {
    const reply = await run('setup', {
      channel: '200',
      time: '18:30',
      timezone: 'UTC',
      cadence: 'weekly',
      weekday: 5,
      language: 'zh',
      quiet_day: 'notice',
      min_score: 0.5,
    });
    expect(replyText(reply)).toMatch(/weekly on Friday at 18:30 UTC/);
    expect(replyText(reply)).toMatch(/2026-11-27 18:30 UTC/); // 2026-11-21 is a Saturday
    const next = /Next digest\n(.*)/.exec(replyText(reply))![1]!;
    expect(next.match(/18:30 UTC/g)).toHaveLength(1); // a UTC channel's time said once
  });

  it("puts the week's papers by family on top of a weekly digest when asked, and shows it in the preview", async () => {
    expect(await run('setup', { channel: '300', time: '09:00', timezone: 'UTC', header_image: true })).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/header_image is for weekly digests/),
    });
    const reply = await run('setup', {
      channel: '300',
      time: '09:00',
      timezone: 'UTC',
      cadence: 'weekly',
      header_image: true,
    });
    expect(replyText(reply)).toMatch(/Header picture\nthe week's papers by family/);
    expect(replyText(await run('status', { channel: '100' }))).toMatch(/Header picture\nno/);
    const preview = await run('preview', { channel: '300' });
    expect(preview.files!.map((f) => f.name)).toEqual(['digest-week-2026-11-21.png']);
    expect(preview.files![0]!.description).toMatch(
      /^Bar chart of the week's 3 GRPO-family papers by family: GRPO 3\.$/,
    );
  });

  it('autocompletes time zones and comma-separated topics', async () => {
    const zones = await digest.autocomplete!(commandInput('setup', {}), { name: 'timezone', value: 'berl' }, deps());
    expect(zones.map((z) => z.value)).toContain('Europe/Berlin');
    const topics = await digest.autocomplete!(
      commandInput('setup', {}),
      { name: 'topics', value: 'algorithm, mat' },
      deps(),
    );
    expect(topics).toEqual([{ name: 'algorithm,math-code', value: 'algorithm,math-code' }]);
  });

  it('runs in the console, where a channel is typed as a name', async () => {
    const d = deps();
    expect(
      await answerLine('/digest setup channel:#papers time:07:45 timezone:Asia/Shanghai topics:survey', d),
    ).toMatch(/daily at 07:45 Asia\/Shanghai/);
    expect(await answerLine('/digest status channel:papers', d)).toMatch(/survey/);
    expect(await answerLine('/digest now channel:papers', d)).toMatch(/needs the bot running on Discord/);
    expect(await answerLine('/digest preview channel:papers', d)).toMatch(/Nothing would be posted in #papers now/);
    expect((await channelRows()).find((c) => c.channelId === 'papers')).toMatchObject({
      guildId: 'console',
      timezone: 'Asia/Shanghai',
    });
  });
});
