import { beforeAll, describe, expect, it } from 'vitest';
import { trends } from '../../commands/trends.ts';
import { trendPapers } from '../../db/queries/trends.ts';
import { citations, papers } from '../../db/schema.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { FAMILIES, familyRef } from '../../src/core/papers/families.ts';
import { createTestDb } from '../helpers/db.ts';
import { readPng } from '../helpers/png.ts';
import { commandDeps, commandInput } from './helpers.ts';

describe('/trends', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const ask = (options: Record<string, string | number> = {}, now = new Date('2026-11-21T12:00:00Z')) =>
    runCommand(
      trends,
      commandInput(undefined, options),
      commandDeps(t.db, () => now),
    );

  beforeAll(async () => {
    t = await createTestDb();
    const paper = (arxivId: string, title: string, over: Partial<typeof papers.$inferInsert> = {}) => ({
      arxivId,
      title,
      titleKey: title.toLowerCase().replace(/\W/g, ''),
      rulesFamily: true,
      rulesScore: 0.9,
      families: ['GRPO'],
      ...over,
    });
    const [gspo, , , , citer] = await t.db
      .insert(papers)
      .values([
        paper('2507.18071', 'Group Sequence Policy Optimization', {
          families: ['GSPO', 'GRPO'],
          publishedOn: '2025-07-24',
        }),
        paper('2611.09001', 'A fresh GSPO variant', {
          families: ['GSPO', 'GRPO'],
          topics: ['multimodal'],
          hfUpvotes: 77,
          publishedOn: '2026-11-16',
          newsAt: new Date('2026-11-17T06:00:00Z'),
        }),
        paper('2611.09002', 'Dated by month only', { publishedOn: '2026-11-01' }),
        paper('2611.09003', 'Another GRPO paper', {
          hfUpvotes: 3,
          publishedOn: '2026-11-10',
          newsAt: new Date('2026-11-10T06:00:00Z'),
        }),
        paper('2611.09004', 'A bandit study citing GSPO', {
          rulesFamily: false,
          rulesScore: 0.1,
          families: [],
          newsAt: new Date('2026-11-18T06:00:00Z'),
        }),
        paper('2611.09005', 'Not GRPO at all', {
          rulesFamily: false,
          rulesScore: 0.1,
          families: [],
          newsAt: new Date('2026-11-18T06:00:00Z'),
        }),
      ])
      .returning({ id: papers.id });
    await t.db.insert(citations).values({ citingPaperId: citer!.id, citedPaperId: gspo!.id, source: 'test' });
  });

  it("reads a paper's day from its announcement, else its publication, and no day from a month-only date", async () => {
    const rows = await trendPapers(t.db, FAMILIES.map(familyRef), { from: '2026-11-01', to: '2026-11-22' });
    const byId = new Map(rows.map((r) => [r.arxivId, r]));
    expect(byId.get('2611.09001')).toMatchObject({
      day: '2026-11-17',
      grpoFamily: true,
      hfUpvotes: 77,
      topics: ['multimodal'],
    });
    expect(byId.get('2611.09001')!.families).toEqual(expect.arrayContaining(['GSPO', 'GRPO']));
    expect(byId.get('2611.09002')).toMatchObject({ day: null });
    // Citing GSPO's defining paper does not put a paper in the family (the one definition every command counts).
    expect(byId.has('2611.09004')).toBe(false);
    expect(byId.has('2611.09005')).toBe(false);
    expect(byId.has('2507.18071')).toBe(false);
  });

  it("charts the GRPO family per week with the numbers as text, upvotes by the week's top paper", async () => {
    const reply = await ask({ weeks: 4 });
    const [embed] = reply.embeds!;
    expect(embed!.title).toBe('GRPO family: papers per week');
    expect(embed!.description!.split('\n')).toEqual([
      'Oct 26 – Nov 2 · 0',
      '**Nov 9** · 1 · ▲ 3 [Another GRPO paper](https://arxiv.org/abs/2611.09003)',
      '**Nov 16** · 1 · ▲ 77 [A fresh GSPO variant](https://arxiv.org/abs/2611.09001)',
    ]);
    expect(embed!.fields).toEqual([
      {
        name: 'In all',
        value:
          '2 of the 4 GRPO-family papers are in these 4 weeks; 1 is dated only by month; the other 1 is dated outside them. To see the 3 dated in the last 104 weeks, try weeks:70.',
        inline: true,
      },
      {
        name: 'By family',
        value: 'GRPO 2 · GSPO 1 (members in these weeks; a paper in two families counts in both)',
        inline: true,
      },
    ]);
    expect(embed!.footer).toMatch(/^Weeks start on Monday \(UTC\)\..* 1 paper is dated only by month and in no week\./);
    expect(embed!.image).toBe('trends-grpo-family-4w.png');
    const [file] = reply.files!;
    expect(file).toMatchObject({ name: 'trends-grpo-family-4w.png', width: 1000 });
    expect(file!.description).toBe(
      "Bar chart of GRPO family papers per week, 2 in 4 weeks: Oct 26: 0, Nov 2: 0, Nov 9: 1, Nov 16: 1. Each week's top paper's Hugging Face upvotes are written above its bar. Smaller panels for GRPO (2), GSPO (1).",
    );
    expect(readPng(file!.data).inked).toBeGreaterThan(0.02);
  });

  it('narrows to a family (its members, as in /family list: a paper only citing the defining paper is not one) and a topic', async () => {
    const gspo = await ask({ family: 'gspo', weeks: 4 });
    expect(gspo.embeds![0]!.title).toBe('GSPO: papers per week');
    expect(gspo.embeds![0]!.description).toMatch(/^\*\*Nov 16\*\* · 1 · ▲ 77 /m);
    expect(gspo.embeds![0]!.fields![0]!.value).toBe(
      '1 of the 2 members of GSPO is in these 4 weeks; the other 1 is dated outside them. To see the 2 dated in the last 104 weeks, try weeks:70.',
    );
    const multimodal = await ask({ family: 'GSPO', topic: 'multimodal', weeks: 4 });
    expect(multimodal.embeds![0]!.title).toBe('GSPO · Multimodal: papers per week');
    expect(multimodal.files![0]!.name).toBe('trends-gspo-multimodal-4w.png');
  });

  it('says when nothing is dated in the weeks asked, and how far back to look', async () => {
    const later = await ask({}, new Date('2027-03-03T12:00:00Z'));
    expect(later.files).toBeUndefined();
    expect(later.embeds![0]!.description).toBe(
      'No paper of GRPO family is dated in the 12 weeks from 2026-12-14 to today. The newest dated one is from 2026-11-17; the 3 dated in the last 104 weeks go back to the week of 2025-07-21: try weeks:85. 0 of the 4 GRPO-family papers are in these 12 weeks; the other 4 are dated outside them.',
    );
    // The weeks suggested hold every dated paper, not just the newest at the chart's left edge (issue 27).
    const suggested = await ask({ weeks: 85 }, new Date('2027-03-03T12:00:00Z'));
    expect(suggested.embeds![0]!.fields![0]!.value).toBe(
      '3 of the 4 GRPO-family papers are in these 85 weeks; 1 is dated only by month.',
    );
    expect(suggested.embeds![0]!.description!.split('\n')[0]).toBe('**Jul 21 2025** · 1');
    // A chart that shows some of them says which weeks would show the rest.
    const some = await ask({ weeks: 18 }, new Date('2027-03-03T12:00:00Z'));
    expect(some.embeds![0]!.fields![0]!.value).toBe(
      '2 of the 4 GRPO-family papers are in these 18 weeks; the other 2 are dated outside them. To see the 3 dated in the last 104 weeks, try weeks:85.',
    );
    const one = await ask({ topic: 'multimodal' }, new Date('2027-03-03T12:00:00Z'));
    expect(one.embeds![0]!.description).toMatch(/The newest dated one is from 2026-11-17: try weeks:16\./);
    const dapo = await ask({ family: 'DAPO' });
    expect(dapo.embeds![0]!.description).toBe(
      'No paper of DAPO is dated in the 12 weeks from 2026-08-31 to today. The corpus has no members of DAPO yet.',
    );
  });

  it('refuses an unknown family or topic and a range it does not draw, with what to type', async () => {
    expect(await ask({ family: 'PPO-Ultra' })).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/^No family called "PPO-Ultra"\. Known families: GRPO, DAPO/),
    });
    expect(await ask({ topic: 'nonsense' })).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/must be one of: algorithm/),
    });
    expect(await ask({ weeks: 300 })).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/between 4 and 104/),
    });
  });
});
