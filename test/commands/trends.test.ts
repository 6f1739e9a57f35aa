import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { trends } from '../../commands/trends.ts';
import { trendPapers } from '../../db/queries/trends.ts';
import { papers } from '../../db/schema.ts';
import { runCommand } from '../../src/dispatch.ts';
import { FAMILIES, familyRef } from '../../src/papers/families.ts';
import { readPng } from '../helpers/png.ts';
import { useSeededDb } from '../helpers/seeded.ts';
import { commandInput } from './helpers.ts';

/** The seeded corpus's clock: 2026-11-21, a Saturday; the seeds' newest dated paper is from April 2026. */
describe('/trends', () => {
  const seeded = useSeededDb();
  const ask = (options: Record<string, string | number> = {}) => runCommand(trends, commandInput(undefined, options), seeded().deps);

  it('says when nothing is dated in the weeks asked, and how far back the newest paper is', async () => {
    const reply = await ask();
    expect(reply.files).toBeUndefined();
    expect(reply.embeds![0]!.title).toBe('GRPO family: papers per week');
    expect(reply.embeds![0]!.description).toMatch(/^No paper of GRPO family is dated in the 12 weeks from 2026-08-31 to today\. The newest dated one is from 2026-04-\d\d: try weeks:\d\d\.$/);
  });

  it('charts a year of the GRPO family with the numbers as text, and refuses what it cannot draw', async () => {
    const reply = await ask({ weeks: 52 });
    const [embed] = reply.embeds!;
    expect(embed!.image).toBe('trends-grpo-family-52w.png');
    expect(reply.files![0]).toMatchObject({ name: 'trends-grpo-family-52w.png', width: 1000 });
    expect(readPng(reply.files![0]!.data).inked).toBeGreaterThan(0.02);
    expect(reply.files![0]!.description).toMatch(/^Bar chart of GRPO family papers per week, \d+ in 52 weeks: Nov 24: \d+, Dec 1: \d+/);
    expect(embed!.fields!.find((f) => f.name === 'In all')!.value).toMatch(/^\d+ papers in 52 weeks$/);
    expect(embed!.fields!.find((f) => f.name === 'By family')!.value).toMatch(/^GRPO \d+/);
    expect(embed!.description).toMatch(/^\*\*Jan 26\*\* · \d+ · ▲ 20 /m);
    expect(embed!.footer).toMatch(/Weeks start on Monday \(UTC\)/);

    expect(await ask({ family: 'PPO-Ultra' })).toMatchObject({ ephemeral: true, content: expect.stringMatching(/^No family called "PPO-Ultra"/) });
    expect(await ask({ topic: 'nonsense' })).toMatchObject({ ephemeral: true });
    expect(await ask({ weeks: 300 })).toMatchObject({ ephemeral: true, content: expect.stringMatching(/between 4 and 104/) });
  });

  it('puts a feed\'s paper in the week it was announced, with its upvotes, and leaves month-only dates out of every week', async () => {
    const { db } = seeded();
    const added = await db.insert(papers).values([
      { arxivId: '2611.09001', title: 'A fresh GSPO variant', titleKey: 'afreshgspovariant', rulesFamily: true, rulesScore: 0.9, families: ['GSPO', 'GRPO'], topics: ['multimodal'], hfUpvotes: 77, publishedOn: '2026-11-16', newsAt: new Date('2026-11-17T06:00:00Z') },
      { arxivId: '2611.09002', title: 'Dated by month only', titleKey: 'datedbymonthonly', rulesFamily: true, rulesScore: 0.9, families: ['GRPO'], publishedOn: '2026-11-01' },
    ]).returning({ id: papers.id });
    try {
      const rows = await trendPapers(db, FAMILIES.map(familyRef), { from: '2026-11-01', to: '2026-11-22' });
      expect(rows.find((r) => r.arxivId === '2611.09001')).toMatchObject({ day: '2026-11-17', grpoFamily: true, hfUpvotes: 77, families: expect.arrayContaining(['GSPO', 'GRPO']) });
      expect(rows.find((r) => r.arxivId === '2611.09002')).toMatchObject({ day: null });

      const reply = await ask({ family: 'GSPO', topic: 'multimodal', weeks: 4 });
      expect(reply.embeds![0]!.title).toBe('GSPO · Multimodal: papers per week');
      expect(reply.embeds![0]!.description).toMatch(/^\*\*Nov 16\*\* · 1 · ▲ 77 \[A fresh GSPO variant\]\(https:\/\/arxiv\.org\/abs\/2611\.09001\)$/m);
      expect(reply.files![0]!.name).toBe('trends-gspo-multimodal-4w.png');
      const all = await ask({ weeks: 4 });
      expect(all.embeds![0]!.footer).toMatch(/1 paper is dated only by month and in no week\./);
    } finally {
      await db.delete(papers).where(inArray(papers.id, added.map((a) => a.id)));
    }
    expect(await db.select().from(papers).where(eq(papers.arxivId, '2611.09001'))).toEqual([]);
  });
});
