import { eq, isNotNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { citations, notes, paperSources, papers } from '../../db/schema.ts';
import { importSeeds, type ImportStats } from '../../seeds/import.ts';
import { searchPapers } from '../../src/services/search/search.ts';
import { createTestDb } from '../helpers/db.ts';

describe('importSeeds', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let first: ImportStats;
  let second: ImportStats;
  beforeAll(async () => {
    t = await createTestDb();
    first = await importSeeds({ db: t.db, now: () => new Date('2026-11-21T12:00:00Z') });
    second = await importSeeds({ db: t.db, now: () => new Date('2026-11-21T12:00:00Z') });
  });

  const count = async (where?: ReturnType<typeof sql>) =>
    (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(papers)
        .where(where)
    )[0]!.n;

  it('stores 238 distinct papers, 133 with arXiv ids', async () => {
    expect(first.papers.added).toBe(238);
    expect(await count()).toBe(238);
    expect(await count(sql`${papers.arxivId} is not null`)).toBe(133);
  });

  it('stores 130 structured notes and 50 citation edges into GSPO', async () => {
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(notes))[0]!.n).toBe(130);
    const [gspo] = await t.db.select().from(papers).where(eq(papers.arxivId, '2507.18071'));
    const cites = await t.db.select().from(citations).where(eq(citations.citedPaperId, gspo!.id));
    expect(cites).toHaveLength(50);
    expect(first.citations.unresolved).toBe(0);
  });

  it('changes nothing on a second run and says so in the counts', async () => {
    expect(second.papers).toMatchObject({ added: 0, updated: 0, unchanged: 238 });
    expect(second.notes.added).toBe(0);
    expect(second.citations.added).toBe(0);
    expect(second.sources.added).toBe(0);
  });

  it('keeps provenance for every seed entry, one paper for titles that two files share', async () => {
    const rows = await t.db
      .select({ paperId: paperSources.paperId, n: sql<number>`count(*)::int` })
      .from(paperSources)
      .groupBy(paperSources.paperId)
      .having(sql`count(distinct ${paperSources.source}) > 1`);
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('merges GSPO from the curated list with its Chinese title, organisation and translation', async () => {
    const [gspo] = await t.db.select().from(papers).where(eq(papers.arxivId, '2507.18071'));
    expect(gspo).toMatchObject({
      title: 'Group Sequence Policy Optimization',
      titleZh: '群组序列策略优化',
      organization: '阿里',
    });
    expect(gspo!.abstractZh).toContain('GSPO 基于序列似然定义重要性比率');
  });

  it('repairs the Chinese notes so they read as Chinese, sections kept', async () => {
    const rows = await t.db.select().from(notes).where(isNotNull(notes.heading));
    const withMojibake = rows.filter((n) => /[èåäæçéğŸ]{2}/.test(n.body));
    expect(withMojibake).toEqual([]);
    const withMethod = rows.filter((n) => n.method.length > 0 && n.motivation.length > 0);
    expect(withMethod.length).toBeGreaterThan(120);
  });

  it('keeps the two different S-GRPO papers apart', async () => {
    const rows = await t.db
      .select({ title: papers.title })
      .from(papers)
      .where(sql`${papers.title} ilike 'S-GRPO:%'`);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.title).not.toBe(rows[1]!.title);
  });

  it('classifies every seed paper, GSPO as GRPO-family with its family and reasons', async () => {
    expect(await count(sql`${papers.classifiedAt} is null`)).toBe(0);
    const [gspo] = await t.db.select().from(papers).where(eq(papers.arxivId, '2507.18071'));
    expect(gspo).toMatchObject({ grpoFamily: true, families: expect.arrayContaining(['GSPO']) });
    expect(gspo!.classifyReasons!.length).toBeGreaterThan(0);
    const [survey] = await t.db.select().from(papers).where(eq(papers.arxivId, '2507.13334'));
    expect(survey!.grpoFamily).toBe(false);
  });

  it('makes method names inside Chinese notes searchable', async () => {
    const { hits } = await searchPapers(t.db, 'GSPO', { limit: 10 });
    const withNote = await t.db
      .select({ id: notes.paperId })
      .from(notes)
      .where(sql`${notes.body} like '%GSPO%'`);
    expect(withNote.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining(withNote.map((n) => n.id)));
  });

  it('indexes Chinese text as bigrams for search', async () => {
    const [gspo] = await t.db.select({ zh: papers.searchZh }).from(papers).where(eq(papers.arxivId, '2507.18071'));
    expect(gspo!.zh.split(' ')).toEqual(expect.arrayContaining(['群组', '序列', '策略']));
  });
});
