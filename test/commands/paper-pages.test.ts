import { beforeAll, describe, expect, it } from 'vitest';
import { paper } from '../../commands/paper.ts';
import { findComponentOwner } from '../../commands/index.ts';
import { createDb } from '../../db/client.ts';
import { appState, notes, papers } from '../../db/schema.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { runCommand, runComponent } from '../../src/core/dispatch.ts';
import type { ComponentInput } from '../../src/core/command.ts';
import type { Button, Reply } from '../../src/core/reply.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput } from './helpers.ts';

const actionIds = (r: Reply) =>
  (r.components ?? []).flat().filter((b): b is Extract<Button, { kind: 'action' }> => b.kind === 'action');
const press = (customId: string, userId: string): ComponentInput => ({
  user: { id: userId, name: userId },
  guildId: 'g1',
  channelId: 'c1',
  canManage: false,
  customId,
});

describe('/paper search paging', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const now = () => new Date('2026-11-21T12:00:00Z');
  const longQuery = `policy optimization ${'with verifiable rewards and group baselines '.repeat(6)}`.trim();

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.insert(papers).values(
      Array.from({ length: 12 }, (_, i) => ({
        arxivId: `2611.020${String(i).padStart(2, '0')}`,
        title: `Policy optimization variant ${i + 1}`,
        titleKey: `policyoptimizationvariant${i + 1}`,
        abstract: 'A policy optimization method for reasoning models.',
        publishedOn: `2026-10-${String(i + 1).padStart(2, '0')}`,
      })),
    );
  });

  it('gives the searcher Previous/Next buttons whose presses replace the message with another page', async () => {
    const first = await runCommand(
      paper,
      commandInput('search', { query: 'policy optimization', limit: 5 }),
      commandDeps(t.db, now),
    );
    expect(first.embeds![0]!.footer).toMatch(/Results 1-5/);
    const [prev, next] = actionIds(first);
    expect(prev).toMatchObject({ label: '◀ Previous', disabled: true });
    expect(next!.customId).toMatch(/^paper:page:u1:[\w-]{12}:2$/);
    expect(findComponentOwner(next!.customId)).toBe(paper);

    const second = await runComponent(paper, press(next!.customId, 'u1'), commandDeps(t.db, now));
    expect(second.update).toBe(true);
    expect(second.embeds![0]!.footer).toMatch(/Results 6-10/);
    const third = await runComponent(paper, press(actionIds(second)[1]!.customId, 'u1'), commandDeps(t.db, now));
    expect(third.embeds![0]!.footer).toMatch(/Results 11-12$/);
    expect(actionIds(third)[1]).toMatchObject({ disabled: true });
    const back = await runComponent(paper, press(actionIds(third)[0]!.customId, 'u1'), commandDeps(t.db, now));
    expect(back.embeds![0]!.footer).toMatch(/Results 6-10/);
  });

  it('refuses presses from anyone but the searcher', async () => {
    const first = await runCommand(
      paper,
      commandInput('search', { query: 'policy optimization', limit: 5 }),
      commandDeps(t.db, now),
    );
    const reply = await runComponent(
      paper,
      press(actionIds(first)[1]!.customId, 'someone-else'),
      commandDeps(t.db, now),
    );
    expect(reply).toEqual({ content: expect.stringMatching(/Only the person who searched can page/), ephemeral: true });
  });

  it('keeps a 300-character query server side, so a press works on another replica', async () => {
    const first = await runCommand(
      paper,
      commandInput('search', { query: longQuery, limit: 3 }),
      commandDeps(t.db, now),
    );
    const next = actionIds(first)[1]!.customId;
    expect(next.length).toBeLessThanOrEqual(100);
    const stored = await t.db.select().from(appState);
    expect(stored.map((s) => s.value)).toContainEqual({ query: longQuery, limit: 3, createdAt: now().toISOString() });
    const replica = createDb(t.url, { max: 1 });
    try {
      const second = await runComponent(paper, press(next, 'u1'), commandDeps(replica.db, now));
      expect(second).toMatchObject({ update: true });
      expect(second.embeds![0]!.title).toContain('Papers for "policy optimization with verifiable');
      expect(second.embeds![0]!.footer).toMatch(/Results 4-6/);
    } finally {
      await replica.close();
    }
  });

  it('says so when the saved search is gone', async () => {
    const reply = await runComponent(paper, press('paper:page:u1:AAAAAAAAAAAA:2', 'u1'), commandDeps(t.db, now));
    expect(reply).toEqual({ content: expect.stringMatching(/expired/), ephemeral: true });
  });

  it('lets the console press a button by its id', async () => {
    const deps = commandDeps(t.db, now);
    const text = await answerLine('/paper search query:policy optimization limit:5', deps);
    expect(text).toContain('[◀ Previous] (disabled)');
    const id = /\[Next ▶\] \(\/press (paper:page:console:[\w-]+:2)\)/.exec(text)?.[1];
    expect(id).toBeDefined();
    const pressed = await answerLine(`/press ${id}`, deps);
    expect(pressed).toMatch(/message is replaced/);
    expect(pressed).toMatch(/Results 6-10/);
    expect(await answerLine('/press nothing:here', deps)).toMatch(/No button has the id/);
    expect(await answerLine('/press', deps)).toMatch(/Write \/press followed by/);
  });

  it('says when it searched a misspelled word as another spelling, and the console searches a quoted word as typed', async () => {
    const deps = commandDeps(t.db, now);
    const corrected = await answerLine('/paper search query:polcy optimisation limit:3', deps);
    expect(corrected).toContain(
      'Showing results for policy optimisation (no paper has "polcy"). Search instead for "polcy": put the word in quotes.',
    );
    expect(corrected).toMatch(/Policy optimization variant/);
    expect(await answerLine('/paper search query:\\"polcy\\" optimisation limit:3', deps)).toMatch(
      /No papers match ""polcy" optimisation"/,
    );
    expect(await answerLine('/paper search query:policy optimisation limit:3', deps)).not.toMatch(
      /Showing results for/,
    );
  });
});

describe('/paper random', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const now = () => new Date('2026-11-21T12:00:00Z');
  const sequence =
    (...xs: number[]) =>
    () =>
      xs.shift() ?? 0.5;

  beforeAll(async () => {
    t = await createTestDb();
    const rows = await t.db
      .insert(papers)
      .values([
        {
          arxivId: '2611.03001',
          title: 'Not in the family',
          titleKey: 'notinthefamily',
          rulesFamily: false,
          rulesScore: 0.1,
          hfUpvotes: 500,
        },
        {
          arxivId: '2611.03002',
          title: 'Family paper with a note',
          titleKey: 'familypaperwithanote',
          rulesFamily: true,
          rulesScore: 0.9,
          hfUpvotes: 40,
          topics: ['algorithm'],
        },
        {
          arxivId: '2611.03003',
          title: 'Family paper on math',
          titleKey: 'familypaperonmath',
          rulesFamily: true,
          rulesScore: 0.5,
          topics: ['math-code'],
        },
        { arxivId: '2611.03004', title: 'Unclassified', titleKey: 'unclassified' },
      ])
      .returning({ id: papers.id });
    await t.db
      .insert(notes)
      .values({ paperId: rows[1]!.id, source: 'seed', lang: 'zh', heading: '要点', body: '要点' });
  });

  it('returns a GRPO-family paper card, the same one for the same random numbers', async () => {
    for (const r of [0, 0.3, 0.6, 0.99]) {
      const reply = await runCommand(
        paper,
        commandInput('random', {}),
        commandDeps(t.db, now, { random: sequence(r) }),
      );
      expect(reply.embeds![0]!.title, String(r)).toMatch(/^Family paper/);
      const again = await runCommand(
        paper,
        commandInput('random', {}),
        commandDeps(t.db, now, { random: sequence(r) }),
      );
      expect(again.embeds![0]!.title).toBe(reply.embeds![0]!.title);
    }
    // Weighted toward the note, the upvotes and the higher score: it covers most of the range.
    const low = await runCommand(paper, commandInput('random', {}), commandDeps(t.db, now, { random: sequence(0.6) }));
    expect(low.embeds![0]!.title).toBe('Family paper with a note');
  });

  it('draws within a topic, and draws again in place for the caller only', async () => {
    const reply = await runCommand(paper, commandInput('random', { topic: 'math-code' }), commandDeps(t.db, now));
    expect(reply.embeds![0]!.title).toBe('Family paper on math');
    const another = actionIds(reply).find((b) => b.label === 'Another one')!;
    expect(another.customId).toBe('paper:random:u1:math-code');
    expect(await runComponent(paper, press(another.customId, 'u1'), commandDeps(t.db, now))).toMatchObject({
      update: true,
      embeds: [{ title: 'Family paper on math' }],
    });
    expect((await runComponent(paper, press(another.customId, 'u2'), commandDeps(t.db, now))).ephemeral).toBe(true);
    expect(
      (await runCommand(paper, commandInput('random', { topic: 'survey' }), commandDeps(t.db, now))).content,
    ).toMatch(/No GRPO-family papers in survey/);
  });
});
