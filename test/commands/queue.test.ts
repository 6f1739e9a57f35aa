import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findComponentOwner } from '../../commands/index.ts';
import { queue } from '../../commands/queue.ts';
import { createDb } from '../../db/client.ts';
import { papers, queueItems, votes } from '../../db/schema.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { CUSTOM_IDS } from '../../src/core/custom-id.ts';

const voteCustomId = (paper: number) => CUSTOM_IDS.vote.encode({ paper });
import { runCommand, runComponent } from '../../src/core/dispatch.ts';
import type { CommandDeps, CommandInput, ComponentInput } from '../../src/core/command.ts';
import type { Button, Reply } from '../../src/core/reply.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput, recordingNotifier, recordingPoster, replyText } from './helpers.ts';

const actionIds = (r: Reply) =>
  (r.components ?? []).flat().filter((b): b is Extract<Button, { kind: 'action' }> => b.kind === 'action');
const press = (customId: string, userId: string, guildId = 'g1'): ComponentInput => ({
  user: { id: userId, name: userId },
  guildId,
  channelId: 'c1',
  canManage: false,
  customId,
});
const arxiv = (n: number) => `2611.03${String(n).padStart(3, '0')}`;

describe('/queue', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let clock = new Date('2026-11-21T12:00:00Z');
  const ids: number[] = []; // papers.id by paper number (1-based)
  const deps = (extra: Partial<CommandDeps> = {}) => commandDeps(t.db, () => clock, extra);
  /** A member (not a moderator) of guild `guildId` runs /queue <sub>. */
  const member = (
    userId: string,
    sub: string,
    options: CommandInput['options'] = {},
    guildId = 'g1',
    extra: Partial<CommandDeps> = {},
  ) =>
    runCommand(
      queue,
      commandInput(sub, options, { user: { id: userId, name: userId }, canManage: false, guildId }),
      deps(extra),
    );
  const mod = (sub: string, options: CommandInput['options'] = {}, guildId = 'g1', extra: Partial<CommandDeps> = {}) =>
    runCommand(queue, commandInput(sub, options, { user: { id: '900', name: 'mod' }, guildId }), deps(extra));
  const itemOf = async (guildId: string, n: number) =>
    (
      await t.db
        .select()
        .from(queueItems)
        .where(and(eq(queueItems.guildId, guildId), eq(queueItems.paperId, ids[n - 1]!)))
    )[0];
  const votersOf = async (guildId: string, n: number) => {
    const item = await itemOf(guildId, n);
    return item
      ? (await t.db.select().from(votes).where(eq(votes.queueItemId, item.id))).map((v) => v.userId).sort()
      : [];
  };
  /** Nominates paper n in a guild at a given time, then has `voters` vote for it, a second apart. */
  const seedQueue = async (guildId: string, n: number, at: string, voters: string[]) => {
    clock = new Date(at);
    await member('nominator', 'add', { paper: arxiv(n) }, guildId);
    await member('nominator', 'vote', { paper: arxiv(n) }, guildId); // takes the nominator's vote back: only `voters` count
    for (const [i, v] of voters.entries()) {
      clock = new Date(Date.parse(at) + (i + 1) * 1000);
      await member(v, 'vote', { paper: arxiv(n) }, guildId);
    }
  };

  beforeAll(async () => {
    t = await createTestDb();
    const rows = await t.db
      .insert(papers)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          arxivId: arxiv(i + 1),
          title: `Group relative policy variant ${i + 1}`,
          titleKey: `grouprelativepolicyvariant${i + 1}`,
          abstract: `Variant ${i + 1} rescales group advantages before clipping. It improves math reasoning on AIME.`,
          rulesFamily: true,
          rulesScore: 0.9,
          families: ['GRPO'],
        })),
      )
      .returning({ id: papers.id });
    ids.push(...rows.map((r) => r.id));
  });

  it('toggles a vote and says which happened, with the new count; the first vote nominates the paper', async () => {
    clock = new Date('2026-11-21T12:00:00Z');
    const first = await member('101', 'vote', { paper: arxiv(1) });
    expect(first).toEqual({
      content: expect.stringMatching(
        /^You nominated \*\*Group relative policy variant 1\*\* for the reading group and voted for it: 1 vote\./,
      ),
      ephemeral: true,
    });
    expect(await itemOf('g1', 1)).toMatchObject({ nominatedBy: '101', status: 'queued' });
    expect((await member('102', 'vote', { paper: arxiv(1) })).content).toMatch(
      /Your vote for \*\*Group relative policy variant 1\*\* is counted: 2 votes\./,
    );
    expect((await member('101', 'vote', { paper: arxiv(1) })).content).toMatch(
      /Your vote for .* is removed: 1 vote now\./,
    );
    expect(await votersOf('g1', 1)).toEqual(['102']);
    expect((await member('101', 'vote', { paper: arxiv(1) })).content).toMatch(/is counted: 2 votes/);
    expect(await itemOf('g1', 1)).toMatchObject({ nominatedBy: '101' }); // voting back in does not re-nominate
  });

  it('keeps votes per server', async () => {
    expect((await member('101', 'vote', { paper: arxiv(1) }, 'g2')).content).toMatch(/You nominated .* 1 vote/);
    expect(await votersOf('g2', 1)).toEqual(['101']);
    expect(await votersOf('g1', 1)).toEqual(['101', '102']);
  });

  it("answers the digest's vote button (vote:<paperId>) with the same toggle, only to the voter", async () => {
    const id = voteCustomId(ids[0]!);
    expect(findComponentOwner(id)).toBe(queue);
    const on = await runComponent(queue, press(id, '103'), deps());
    expect(on).toEqual({ content: expect.stringMatching(/is counted: 3 votes/), ephemeral: true });
    const off = await runComponent(queue, press(id, '103'), deps());
    expect(off.content).toMatch(/is removed: 2 votes now/);
    expect(off.update).toBeUndefined(); // the digest message itself is left alone
    // A paper id that was never stored is not "no longer" in the corpus.
    expect((await runComponent(queue, press(voteCustomId(999_999), '103'), deps())).content).toMatch(
      /names no paper in the corpus/,
    );
    for (const bad of ['vote:abc', 'vote:2147483648', 'vote:999999999999999'])
      expect((await runComponent(queue, press(bad, '103'), deps())).content).toMatch(
        /not a vote button the bot made.*\/queue vote paper:/,
      );
    // An arXiv id typed into /press is not "gone from the corpus": the answer says how to vote for it.
    const typed = (await runComponent(queue, press('vote:2507.18071', '103'), deps())).content!;
    expect(typed).not.toMatch(/no paper in the corpus/);
    expect(typed).toMatch(/\/queue vote paper:/);
    expect((await runComponent(queue, { ...press(id, '103'), guildId: undefined }, deps())).content).toMatch(
      /belongs to a server/,
    );
  });

  it("nominates with /queue add (with the nominator's vote) and never takes a vote back", async () => {
    expect((await member('104', 'add', { paper: arxiv(2) })).content).toMatch(
      /^Added \*\*Group relative policy variant 2\*\* to the reading-group queue, with your vote: 1 vote\./,
    );
    expect((await member('104', 'add', { paper: arxiv(2) })).content).toMatch(
      /is already in the queue \(nominated by <@104>\); you had already voted for it: 1 vote\./,
    );
    expect((await member('105', 'add', { paper: `https://arxiv.org/abs/${arxiv(2)}v2` })).content).toMatch(
      /already in the queue .*your vote is counted: 2 votes/,
    );
    expect(await votersOf('g1', 2)).toEqual(['104', '105']);
    expect((await member('104', 'add', { paper: '2612.99999' })).content).toMatch(/not in the corpus yet/);
    const choices = await queue.autocomplete!(
      commandInput('add', {}),
      { name: 'paper', value: 'policy variant 2' },
      deps(),
    );
    expect(choices[0]).toEqual({ name: `${arxiv(2)} · Group relative policy variant 2`, value: arxiv(2) });
  });

  it('ranks the queue by votes, ties by nomination time, with who nominated, age and TL;DR, in pages anyone can turn', async () => {
    const g = 'g-rank';
    await seedQueue(g, 3, '2026-11-10T10:00:00Z', ['1']); // 1 vote
    await seedQueue(g, 4, '2026-11-11T10:00:00Z', ['1', '2', '3']); // 3 votes
    await seedQueue(g, 5, '2026-11-12T10:00:00Z', ['1', '2']); // 2 votes, later than 6
    await seedQueue(g, 6, '2026-11-09T10:00:00Z', ['4', '5']); // 2 votes, earlier
    await seedQueue(g, 7, '2026-11-13T10:00:00Z', []); // 0 votes
    await seedQueue(g, 8, '2026-11-08T10:00:00Z', ['9']); // 1 vote, earlier than 3
    await seedQueue(g, 9, '2026-11-14T10:00:00Z', ['7', '8', '9', '10']); // 4 votes
    clock = new Date('2026-11-21T12:00:00Z');

    const first = await member('someone', 'show', {}, g);
    const embed = first.embeds![0]!;
    expect(embed.fields!.map((f) => f.name)).toEqual(
      [9, 4, 6, 5, 8].map((n, i) => `${i + 1}. Group relative policy variant ${n}`),
    );
    expect(embed.fields![0]!.value).toMatch(
      /^\*\*4 votes\*\* · nominated by @nominator <t:\d+:R> · \[arXiv 2611\.03009\]\(https:\/\/arxiv\.org\/abs\/2611\.03009\)/,
    );
    expect(embed.fields![0]!.value).toMatch(/Variant 9 rescales group advantages/); // the TL;DR (extractive here: no LLM summary stored)
    expect(embed.footer).toBe('7 papers in the queue · 1-5');
    const [prev, next] = actionIds(first);
    expect(prev).toMatchObject({ disabled: true });
    expect(next!.customId).toBe('queue:page:2');
    expect(findComponentOwner(next!.customId)).toBe(queue);

    const second = await runComponent(queue, press(next!.customId, 'anyone-else', g), deps());
    expect(second.update).toBe(true);
    expect(second.embeds![0]!.fields!.map((f) => f.name)).toEqual([
      '6. Group relative policy variant 3',
      '7. Group relative policy variant 7',
    ]);
    expect(actionIds(second)[1]).toMatchObject({ disabled: true });
    // A page past the end shows the last page, never "page 3" with a Previous button to a page 2 that reads as missing.
    const past = await member('someone', 'show', { page: 3 }, g);
    expect(past.embeds![0]!.fields!.map((f) => f.name)).toEqual([
      '6. Group relative policy variant 3',
      '7. Group relative policy variant 7',
    ]);
    expect(actionIds(past)[0]!.customId).toBe('queue:page:1');
    expect(past.content).toMatch(/^There is no page \d+; this is page 2, the last\./);
    const empty = await member('someone', 'show', { page: 9 }, 'g-empty');
    expect(replyText(empty)).toMatch(/The queue is empty/);
    expect(empty.components).toBeUndefined();
  });

  it('refuses next, done and remove to members who are not moderators, and changes nothing', async () => {
    const before = {
      items: await t.db.select().from(queueItems).orderBy(queueItems.id),
      votes: await t.db.select().from(votes).orderBy(votes.queueItemId, votes.userId),
    };
    const poster = recordingPoster();
    for (const [sub, options] of [
      ['next', {}],
      ['next', { date: '2026-11-28' }],
      ['done', {}],
      ['done', { paper: arxiv(1) }],
      ['remove', { paper: arxiv(1) }],
      ['remove', { paper: 'nonsense' }],
    ] as const) {
      const reply = await member('101', sub, options, 'g-rank', { poster });
      expect(reply, sub).toEqual({
        content: expect.stringMatching(/^Only moderators \(Manage Server or the moderator role\)/),
        ephemeral: true,
      });
    }
    expect(poster.posted).toEqual([]);
    expect(await t.db.select().from(queueItems).orderBy(queueItems.id)).toEqual(before.items);
    expect(await t.db.select().from(votes).orderBy(votes.queueItemId, votes.userId)).toEqual(before.votes);
  });

  it('schedules the top paper with /queue next and posts the announcement (card, date, voters) through the poster', async () => {
    const poster = recordingPoster();
    const notifier = recordingNotifier(['8']);
    const reply = await mod('next', { date: '2026-11-28' }, 'g-rank', { poster, notifier });
    expect(reply).toEqual({
      content: expect.stringMatching(
        /^Scheduled \*\*Group relative policy variant 9\*\* for Saturday 2026-11-28 and announced it in #c1; 3 voters were told by direct message\./,
      ),
      ephemeral: true,
    });
    expect(poster.posted).toHaveLength(1);
    expect(poster.posted[0]!.threadName).toBe('Reading group 2026-11-28: Group relative policy variant 9');
    // Voter 8 has DMs closed: skipped, while the others are told once each.
    expect(notifier.dms.map((d) => d.userId).sort()).toEqual(['10', '7', '9']);
    expect(notifier.dms[0]!.message.content).toMatch(
      /A paper you voted for, \*\*Group relative policy variant 9\*\*, is the reading group's paper for Saturday 2026-11-28/,
    );
    const { channelId, message, nonce } = poster.posted[0]!;
    expect(channelId).toBe('c1');
    expect(nonce.length).toBeLessThanOrEqual(25);
    expect(message.ephemeral).toBeUndefined();
    expect(message.content).toBe(
      '📚 **Reading group on Saturday 2026-11-28**: **Group relative policy variant 9**\nVoted for by <@7>, <@8>, <@9>, <@10> (4 votes) · nominated by @nominator',
    );
    expect(message.embeds![0]!.title).toBe('Group relative policy variant 9');
    expect(await itemOf('g-rank', 9)).toMatchObject({
      status: 'scheduled',
      scheduledFor: '2026-11-28',
      announcementMessageId: '1',
    });

    const shown = await member('someone', 'show', {}, 'g-rank');
    expect(shown.embeds![0]!.fields![0]).toMatchObject({
      name: 'Next session',
      value: expect.stringMatching(/^\*\*Saturday 2026-11-28\*\*: Group relative policy variant 9 \(4 votes\)/),
    });
    expect(shown.embeds![0]!.fields![1]!.name).toBe('1. Group relative policy variant 4');
    expect((await member('11', 'vote', { paper: arxiv(9) }, 'g-rank')).content).toMatch(
      /is counted: 5 votes\. It is scheduled for the session of Saturday 2026-11-28\./,
    );
  });

  it('returns the announcement itself when nothing can post, defaults to today, and checks the date', async () => {
    const reply = await mod('next', {}, 'g-rank');
    expect(reply.ephemeral).toBeUndefined();
    expect(reply.content).toMatch(
      /^📚 \*\*Reading group on Saturday 2026-11-21\*\*: \*\*Group relative policy variant 4\*\*\nVoted for by <@1>, <@2>, <@3> \(3 votes\)/,
    );
    expect(reply.embeds).toHaveLength(1);
    expect((await mod('next', { date: '2026-02-30' }, 'g-rank')).content).toMatch(
      /"2026-02-30" is not a date\. Write the session date as YYYY-MM-DD/,
    );
    expect((await mod('next', { date: '2026-11-01' }, 'g-rank')).content).toMatch(/2026-11-01 has passed/);
    expect((await mod('next', {}, 'g-empty')).content).toMatch(/The queue is empty: nothing to schedule/);
  });

  it('marks the earliest scheduled (or a given) paper read with /queue done; it moves to the history and cannot be voted back', async () => {
    clock = new Date('2026-11-22T12:00:00Z');
    expect((await mod('done', {}, 'g-rank')).content).toMatch(
      /^Marked \*\*Group relative policy variant 4\*\* read \(session of Saturday 2026-11-21\)\./,
    );
    clock = new Date('2026-11-29T12:00:00Z');
    expect((await mod('done', {}, 'g-rank')).content).toMatch(
      /^Marked \*\*Group relative policy variant 9\*\* read \(session of Saturday 2026-11-28\)/,
    );
    expect((await mod('done', {}, 'g-rank')).content).toMatch(/No session is scheduled/);
    clock = new Date('2026-11-29T13:00:00Z');
    expect((await mod('done', { paper: arxiv(7) }, 'g-rank')).content).toMatch(
      /^Marked \*\*Group relative policy variant 7\*\* read\./,
    ); // straight from the queue
    expect((await mod('done', { paper: arxiv(7) }, 'g-rank')).content).toMatch(/was already read/);
    expect((await mod('done', { paper: arxiv(12) }, 'g-rank')).content).toMatch(/is not in this server's queue/);

    const history = await member('someone', 'history', {}, 'g-rank');
    expect(history.embeds![0]!.fields!.map((f) => f.name)).toEqual([
      '2026-11-29: Group relative policy variant 7',
      'Saturday 2026-11-28: Group relative policy variant 9',
      'Saturday 2026-11-21: Group relative policy variant 4',
    ]);
    expect(history.embeds![0]!.fields![1]!.value).toMatch(/· 5 votes · nominated by @nominator/);
    const names = (await member('someone', 'show', {}, 'g-rank')).embeds![0]!.fields!.map((f) => f.name);
    expect(names).toEqual([
      '1. Group relative policy variant 6',
      '2. Group relative policy variant 5',
      '3. Group relative policy variant 8',
      '4. Group relative policy variant 3',
    ]);
    expect((await member('12', 'vote', { paper: arxiv(9) }, 'g-rank')).content).toMatch(
      /was already read by the reading group \(session of Saturday 2026-11-28\)/,
    );
    expect((await runComponent(queue, press(voteCustomId(ids[8]!), '12', 'g-rank'), deps())).content).toMatch(
      /was already read/,
    );
    expect(await votersOf('g-rank', 9)).toEqual(['10', '11', '7', '8', '9']);
  });

  it('takes a paper out with /queue remove, dropping its votes; a later vote nominates it afresh', async () => {
    expect((await mod('remove', { paper: arxiv(6) }, 'g-rank')).content).toMatch(
      /^Removed \*\*Group relative policy variant 6\*\* from the queue \(2 votes dropped\)/,
    );
    expect(await votersOf('g-rank', 6)).toEqual([]);
    expect((await mod('remove', { paper: arxiv(6) }, 'g-rank')).content).toMatch(/is not in this server's queue/);
    expect((await mod('remove', { paper: arxiv(9) }, 'g-rank')).content).toMatch(/already read.*stay in the history/);
    expect((await member('someone', 'show', {}, 'g-rank')).embeds![0]!.footer).toBe('3 papers in the queue · 1-3');
    expect((await member('77', 'vote', { paper: arxiv(6) }, 'g-rank')).content).toMatch(/You nominated .* 1 vote/);
    expect(await itemOf('g-rank', 6)).toMatchObject({ status: 'queued', nominatedBy: '77' });
  });

  it('refuses direct messages', async () => {
    const reply = await runCommand(queue, commandInput('show', {}, { guildId: undefined }), deps());
    expect(reply.content).toMatch(/belongs to a server/);
  });

  it('runs every subcommand in the console, including the vote button through /press', async () => {
    const d = deps();
    expect(await answerLine(`/queue vote paper:${arxiv(10)}`, d)).toMatch(
      /You nominated Group relative policy variant 10/,
    );
    expect(await answerLine(`/press ${voteCustomId(ids[9]!)}`, d)).toMatch(/is removed: 0 votes now/);
    expect(await answerLine(`/queue add paper:${arxiv(11)}`, d)).toMatch(/Added Group relative policy variant 11/);
    expect(await answerLine('/queue show', d)).toMatch(
      /1\. Group relative policy variant 11\n.*1 vote · nominated by @console/,
    );
    expect(await answerLine('/queue next date:2026-12-05', d)).toMatch(
      /Reading group on Saturday 2026-12-05: Group relative policy variant 11\nVoted for by @console/,
    );
    expect(await answerLine('/queue done', d)).toMatch(/Marked Group relative policy variant 11 read/);
    expect(await answerLine('/queue history', d)).toMatch(/Saturday 2026-12-05: Group relative policy variant 11/);
    expect(await answerLine(`/queue remove paper:${arxiv(10)}`, d)).toMatch(/Removed Group relative policy variant 10/);
  });
});

describe('/queue under concurrent votes', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const paperIds: number[] = [];
  const now = () => new Date('2026-11-21T12:00:00Z');

  beforeAll(async () => {
    t = await createTestDb();
    const rows = await t.db
      .insert(papers)
      .values(
        Array.from({ length: 9 }, (_, i) => ({
          arxivId: `2611.0400${i + 1}`,
          title: `Concurrent paper ${i + 1}`,
          titleKey: `concurrentpaper${i + 1}`,
          abstract: 'A paper.',
        })),
      )
      .returning({ id: papers.id });
    paperIds.push(...rows.map((r) => r.id));
  });

  /** Two connection pools on the same database, as two bot replicas would have. */
  async function twoReplicas() {
    const a = createDb(t.url, { max: 10 });
    const b = createDb(t.url, { max: 10 });
    const depsOf = (h: typeof a) => commandDeps(h.db, now);
    return { replicas: [depsOf(a), depsOf(b)], close: () => Promise.all([a.close(), b.close()]) };
  }
  const countRows = async (paperId: number, guildId = 'g1') => {
    const items = await t.db
      .select()
      .from(queueItems)
      .where(and(eq(queueItems.guildId, guildId), eq(queueItems.paperId, paperId)));
    const rows = items[0] ? await t.db.select().from(votes).where(eq(votes.queueItemId, items[0].id)) : [];
    return { items: items.length, votes: rows.map((r) => r.userId) };
  };

  it('counts 50 users voting for one new paper at once exactly once each, with one nomination', async () => {
    const { replicas, close } = await twoReplicas();
    try {
      const id = voteCustomId(paperIds[0]!);
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const d = replicas[i % 2]!;
          return i % 3 === 0
            ? runCommand(
                queue,
                commandInput(
                  'vote',
                  { paper: '2611.04001' },
                  { user: { id: `${1000 + i}`, name: 'u' }, canManage: false },
                ),
                d,
              )
            : runComponent(queue, press(id, `${1000 + i}`), d);
        }),
      );
      expect(
        replies.every((r) => r.ephemeral && /voted for it: 1 vote|is counted: \d+ votes/.test(r.content ?? '')),
      ).toBe(true);
      expect(replies.filter((r) => /You nominated/.test(r.content ?? ''))).toHaveLength(1);
      // Each voter was told a different count, 1 to 50: no vote lost, none counted twice.
      const counts = replies.map((r) => Number(/(\d+) votes?/.exec(r.content ?? '')![1])).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const rows = await countRows(paperIds[0]!);
      expect(rows.items).toBe(1);
      expect(rows.votes).toHaveLength(50);
      expect(new Set(rows.votes).size).toBe(50);
    } finally {
      await close();
    }
  });

  it("keeps one user's simultaneous presses consistent: each press toggles, never two votes", async () => {
    const { replicas, close } = await twoReplicas();
    try {
      const id = voteCustomId(paperIds[1]!);
      // 20 users press twice at once (back to no vote), 10 users three times (one vote), from both replicas.
      const presses = [
        ...Array.from({ length: 20 }, (_, i) => [`${2000 + i}`, 2] as const),
        ...Array.from({ length: 10 }, (_, i) => [`${3000 + i}`, 3] as const),
      ].flatMap(([user, n]) => Array.from({ length: n }, (_, k) => ({ user, replica: replicas[k % 2]! })));
      const replies = await Promise.all(presses.map((p) => runComponent(queue, press(id, p.user), p.replica)));
      const rows = await countRows(paperIds[1]!);
      expect(rows.votes.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `${3000 + i}`));
      for (const user of ['2000', '2019', '3000', '3009']) {
        const mine = replies
          .filter((_, i) => presses[i]!.user === user)
          .map((r) => (/removed/.test(r.content ?? '') ? 'off' : 'on'))
          .sort();
        expect(mine).toEqual(user.startsWith('2') ? ['off', 'on'] : ['off', 'on', 'on']);
      }
      // The last count anyone was told is the number of rows.
      const told = replies.map((r) => Number(/(\d+) votes?/.exec(r.content ?? '')![1]));
      expect(Math.min(...told)).toBeGreaterThanOrEqual(0);
      expect(told.filter((n) => n === rows.votes.length).length).toBeGreaterThan(0);
      expect(told.every((n) => n <= 30)).toBe(true);
    } finally {
      await close();
    }
  });

  it('never schedules the same paper twice when moderators run /queue next at once', async () => {
    const { replicas, close } = await twoReplicas();
    try {
      // Papers 3-9 in guild g-next, paper k with k-2 votes: seven different tops to take.
      for (const [i, pid] of paperIds.slice(2).entries()) {
        for (let v = 0; v <= i; v++)
          await runComponent(queue, press(voteCustomId(pid), `${4000 + v}`, 'g-next'), replicas[0]!);
      }
      const modInput = commandInput('next', { date: '2026-11-28' }, { guildId: 'g-next' });
      const replies = await Promise.all(
        Array.from({ length: 7 }, (_, i) => runCommand(queue, modInput, replicas[i % 2]!)),
      );
      const titles = replies.map((r) => /Concurrent paper (\d)/.exec(r.content ?? '')?.[1]).sort();
      expect(titles).toEqual(['3', '4', '5', '6', '7', '8', '9']);
      const again = await runCommand(queue, modInput, replicas[0]!);
      expect(again.content).toMatch(/The queue is empty/);
    } finally {
      await close();
    }
  });
});
