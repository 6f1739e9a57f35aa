import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { reclassifyIfRulesChanged } from '../../../../src/services/ingest/reclassify.ts';
import { ingestCandidates } from '../../../../src/services/ingest/ingest.ts';
import { paperSources, papers } from '../../../../db/schema.ts';
import type { PaperCandidate } from '../../../../src/core/papers/candidate.ts';
import { createTestDb } from '../../../helpers/db.ts';
import { titleKey } from '../../../../src/core/papers/identity.ts';
import { saveJudgement } from '../../../../db/queries/judgements.ts';
import { setState } from '../../../../db/queries/app-state.ts';

const GRPO_ABSTRACT =
  'We train a 7B language model with reinforcement learning from verifiable rewards using group relative policy optimization (GRPO) on math reasoning, removing the critic and normalising rewards within each group of sampled responses.';

function rss(
  arxivId: string,
  version: number,
  announceType: PaperCandidate['announceType'],
  over: Partial<PaperCandidate> = {},
): PaperCandidate {
  return {
    source: 'arxiv-rss',
    externalId: `${arxivId}v${version}`,
    arxivId,
    version,
    announceType,
    title: `Paper ${arxivId}`,
    abstract: 'A study of convolution kernels for images.',
    authors: ['A. Author', 'B. Author'],
    categories: ['cs.LG'],
    publishedOn: '2026-11-20',
    raw: { guid: `oai:arXiv.org:${arxivId}v${version}` },
    ...over,
  };
}

describe('ingestCandidates', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    t = await createTestDb();
  });
  const row = async (arxivId: string) => (await t.db.select().from(papers).where(eq(papers.arxivId, arxivId)))[0]!;
  const sourcesOf = async (id: number) => t.db.select().from(paperSources).where(eq(paperSources.paperId, id));
  const news = new Date('2026-11-21T06:00:00Z');

  it('stores new papers classified, announced, with provenance, and a re-run writes nothing', async () => {
    const items = [
      rss('2611.00001', 1, 'new', {
        title: 'GRPO-Lite: Group Relative Policy Optimization without a Critic',
        abstract: GRPO_ABSTRACT,
      }),
      rss('2611.00002', 1, 'new'),
    ];
    expect(await ingestCandidates({ db: t.db, now: () => news }, items, { newsAt: news })).toMatchObject({
      received: 2,
      new: 2,
      family: 1,
      announced: 2,
      sources: 2,
    });
    const p = await row('2611.00001');
    expect(p).toMatchObject({ arxivVersion: 1, grpoFamily: true, newsAt: news, authorCount: 2 });
    expect(p.families).toContain('GRPO');

    expect(await ingestCandidates({ db: t.db, now: () => news }, items, { newsAt: news })).toMatchObject({
      new: 0,
      updated: 0,
      unchanged: 2,
      sources: 0,
    });
  });

  it('folds a cross-list and the HF item of the same paper into one row', async () => {
    const cross = rss('2611.00003', 1, 'cross', { categories: ['cs.CL', 'cs.LG'] });
    const hf: PaperCandidate = {
      source: 'hf-daily',
      externalId: '2611.00003',
      arxivId: '2611.00003',
      title: cross.title,
      abstract: cross.abstract,
      authors: [],
      categories: [],
      raw: {},
      hf: { upvotes: 12, githubUrl: 'https://github.com/x/y', githubStars: 40, organization: 'Lab' },
    };
    const s = await ingestCandidates(
      { db: t.db, now: () => news },
      [cross, rss('2611.00003', 1, 'new', { categories: ['cs.LG'] }), hf],
      { newsAt: news },
    );
    expect(s).toMatchObject({ new: 1, sources: 2 });
    const p = await row('2611.00003');
    expect(p).toMatchObject({ hfUpvotes: 12, githubStars: 40, organization: 'Lab', categories: ['cs.CL', 'cs.LG'] });
    // Upvotes grow during the day; the latest value wins and nothing else is lost.
    await ingestCandidates({ db: t.db, now: () => news }, [{ ...hf, hf: { upvotes: 30 } }], { newsAt: news });
    expect(await row('2611.00003')).toMatchObject({
      hfUpvotes: 30,
      githubStars: 40,
      githubUrl: 'https://github.com/x/y',
    });
  });

  it('bumps the version on a replace, keeps both versions in provenance, and never announces it', async () => {
    await ingestCandidates({ db: t.db, now: () => news }, [rss('2611.00004', 1, 'new')], { newsAt: null });
    const s = await ingestCandidates(
      { db: t.db, now: () => news },
      [rss('2611.00004', 2, 'replace', { title: 'Paper 2611.00004, revised' })],
      { newsAt: news },
    );
    expect(s).toMatchObject({ new: 0, updated: 1, announced: 0 });
    const p = await row('2611.00004');
    expect(p).toMatchObject({ arxivVersion: 2, title: 'Paper 2611.00004, revised', newsAt: null });
    expect((await sourcesOf(p.id)).map((r) => r.externalId).sort()).toEqual(['2611.00004v1', '2611.00004v2']);
    // An old version arriving late (a cross-list of v1) never rolls the text back.
    await ingestCandidates({ db: t.db, now: () => news }, [rss('2611.00004', 1, 'cross')], { newsAt: news });
    expect(await row('2611.00004')).toMatchObject({ arxivVersion: 2, title: 'Paper 2611.00004, revised' });
  });

  it('lets a replace change only version, text and provenance: never the date or the authors (a 2025 paper stays a 2025 paper)', async () => {
    const [seed] = await t.db
      .insert(papers)
      .values({
        arxivId: '2507.00007',
        arxivVersion: 2,
        title: 'Seed paper',
        titleKey: 'seedpaper',
        abstract: 'Old abstract.',
        organization: 'Qwen Team',
      })
      .returning();
    await ingestCandidates(
      { db: t.db, now: () => news },
      [
        rss('2507.00007', 3, 'replace', {
          title: 'Seed paper',
          abstract: 'Revised abstract.',
          authors: ['X. Someone'],
          publishedOn: '2026-11-20',
        }),
      ],
      { newsAt: news },
    );
    const p = await row('2507.00007');
    expect(p).toMatchObject({
      id: seed!.id,
      arxivVersion: 3,
      abstract: 'Revised abstract.',
      publishedOn: null,
      authors: [],
      authorCount: null,
      organization: 'Qwen Team',
      newsAt: null,
    });
    expect((await sourcesOf(p.id)).map((r) => r.externalId)).toEqual(['2507.00007v3']);
    // A dated paper keeps its date through a replace too.
    await ingestCandidates(
      { db: t.db, now: () => news },
      [rss('2611.00008', 1, 'new', { publishedOn: '2026-11-02' })],
      { newsAt: news },
    );
    await ingestCandidates(
      { db: t.db, now: () => news },
      [rss('2611.00008', 2, 'replace', { publishedOn: '2026-11-20', authors: ['Z. Other'] })],
      { newsAt: news },
    );
    expect(await row('2611.00008')).toMatchObject({
      arxivVersion: 2,
      publishedOn: '2026-11-02',
      authors: ['A. Author', 'B. Author'],
    });
  });

  it('takes no date or version arXiv could not have issued: 9999-12-31 is no date, a replace to v1000 changes nothing', async () => {
    const now = { db: t.db, now: () => news };
    await ingestCandidates(
      now,
      [
        rss('2611.00091', 1, 'new', { publishedOn: '9999-12-31' }),
        rss('2611.00092', 1, 'new', { publishedOn: '1970-01-01' }),
        rss('2611.00093', 1, 'new', { publishedOn: '2026-02-30' }),
        rss('2611.00094', 1, 'new', { publishedOn: '2026-11-22' }), // tomorrow in UTC: arXiv dates in US Eastern time
      ],
      { newsAt: news },
    );
    expect((await row('2611.00091')).publishedOn).toBeNull();
    expect((await row('2611.00092')).publishedOn).toBeNull();
    expect((await row('2611.00093')).publishedOn).toBeNull();
    expect((await row('2611.00094')).publishedOn).toBe('2026-11-22');
    // A later, real date still fills the empty one.
    await ingestCandidates(now, [rss('2611.00091', 1, 'cross', { publishedOn: '2026-11-20' })], { newsAt: null });
    expect((await row('2611.00091')).publishedOn).toBe('2026-11-20');

    await ingestCandidates(now, [rss('2611.00095', 2, 'new')], { newsAt: news });
    for (const version of [1000, 23, 0])
      await ingestCandidates(now, [rss('2611.00095', version, 'replace', { title: `Rewritten as v${version}` })], {
        newsAt: null,
      });
    expect(await row('2611.00095')).toMatchObject({ arxivVersion: 2, title: 'Paper 2611.00095' });
    await ingestCandidates(now, [rss('2611.00095', 3, 'replace', { title: 'A real v3' })], { newsAt: null });
    expect(await row('2611.00095')).toMatchObject({ arxivVersion: 3, title: 'A real v3' });
  });

  it('stores a paper first seen as a replace without announcing it', async () => {
    const s = await ingestCandidates({ db: t.db, now: () => news }, [rss('2401.00005', 3, 'replace-cross')], {
      newsAt: news,
    });
    expect(s).toMatchObject({ new: 1, announced: 0 });
    // Nor dating it on the day its new version was announced.
    expect(await row('2401.00005')).toMatchObject({ newsAt: null, publishedOn: null });
  });

  it('gives a title-only paper its arXiv id instead of duplicating it', async () => {
    const [seed] = await t.db
      .insert(papers)
      .values({
        title: 'Seed-Only: A Title Known Without Its Id',
        titleKey: 'seedonlyatitleknownwithoutitsid',
        abstract: '',
      })
      .returning();
    const s = await ingestCandidates(
      { db: t.db, now: () => news },
      [rss('2611.00006', 1, 'new', { title: 'Seed-only: a title known without its id' })],
      { newsAt: news },
    );
    expect(s).toMatchObject({ new: 0, merged: 1, updated: 1, announced: 0 });
    const p = await row('2611.00006');
    expect(p.id).toBe(seed!.id);
    // arXiv's own title and abstract are authoritative once the id is known.
    expect(p.title).toBe('Seed-only: a title known without its id');
    expect(p.abstract).toBe('A study of convolution kernels for images.');
  });

  it('handles batches larger than one transaction', async () => {
    const many = Array.from({ length: 25 }, (_, i) => rss(`2611.1${String(i).padStart(4, '0')}`, 1, 'new'));
    expect(await ingestCandidates({ db: t.db, now: () => news }, many, { newsAt: null, batchSize: 10 })).toMatchObject({
      new: 25,
      announced: 0,
      sources: 25,
    });
  });

  it('stores a feed whose item has a title too long for an index row, with the rest of the feed', async () => {
    // 1,000 CJK characters (the sanitiser's cap) are 3,000 UTF-8 bytes: over a btree row's 2,704.
    const longTitle = '强化学习'.repeat(250);
    const feed = [rss('2611.30001', 1, 'new', { title: longTitle }), rss('2611.30002', 1, 'new')];
    expect(await ingestCandidates({ db: t.db, now: () => news }, feed, { newsAt: null })).toMatchObject({ new: 2 });
    const stored = await row('2611.30001');
    expect(stored.title).toBe(longTitle);
    expect(new TextEncoder().encode(stored.titleKey).length).toBeLessThan(1_000);
    // The same title again is the same paper, and another long title is another paper.
    const again = [rss('2611.30001', 2, 'replace', { title: longTitle })];
    expect(await ingestCandidates({ db: t.db, now: () => news }, again, { newsAt: null })).toMatchObject({ new: 0 });
    expect(titleKey(`${longTitle}甲`)).not.toBe(titleKey(`${longTitle}乙`));
  });

  it('re-classifies stored papers once when the rules change', async () => {
    const [stale] = await t.db
      .insert(papers)
      .values({
        title: 'GRPO for Theorem Proving',
        titleKey: 'grpofortheoremproving',
        abstract: GRPO_ABSTRACT,
        rulesFamily: false,
        rulesScore: 0,
      })
      .returning();
    expect(await reclassifyIfRulesChanged({ db: t.db, now: () => news }, 2)).toBeGreaterThanOrEqual(1);
    expect((await t.db.select().from(papers).where(eq(papers.id, stale!.id)))[0]).toMatchObject({ grpoFamily: true });
    expect(await reclassifyIfRulesChanged({ db: t.db, now: () => news })).toBeNull();
  });

  it("keeps the families the judge named through a rules change and a new version's abstract", async () => {
    // The rules read GRPO and RLVR; the judge read the paper by role and named DAPO too (its clip-higher).
    const abstract = `${GRPO_ABSTRACT} We decouple the lower and upper clipping ranges.`;
    await ingestCandidates({ db: t.db, now: () => news }, [rss('2611.00090', 1, 'new', { abstract })], {
      newsAt: null,
    });
    const stored = await row('2611.00090');
    expect(stored.families).toEqual(['GRPO', 'RLVR']);
    await saveJudgement(t.db, {
      paperId: stored.id,
      judgeVersion: 'test',
      status: 'ok',
      inFamily: true,
      reason: 'trains with GRPO and DAPO clip-higher',
      families: ['GRPO', 'DAPO'],
      createdAt: news,
    });
    expect((await row('2611.00090')).families).toEqual(['GRPO', 'DAPO']);
    await setState(t.db, 'classifier-rules-version', 'an older version', news);
    await reclassifyIfRulesChanged({ db: t.db, now: () => news });
    expect((await row('2611.00090')).families).toEqual(['GRPO', 'DAPO']);
    await ingestCandidates(
      { db: t.db, now: () => news },
      [rss('2611.00090', 2, 'replace', { abstract: `${abstract} We add code tasks.` })],
      { newsAt: news },
    );
    expect(await row('2611.00090')).toMatchObject({ arxivVersion: 2, families: ['GRPO', 'DAPO'] });
  });
});
