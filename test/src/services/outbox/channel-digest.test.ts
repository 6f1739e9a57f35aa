import { beforeAll, describe, expect, it } from 'vitest';
import { loadChannelDigest } from '../../../../src/services/outbox/channel-digest.ts';
import { digestSummaries } from '../../../../src/services/summarize/show.ts';
import {
  channels,
  feedState,
  notes,
  papers,
  queueItems,
  summaries,
  votes,
  type NewPaper,
} from '../../../../db/schema.ts';
import { composeDigest } from '../../../../src/core/digest/compose.ts';
import { createTestDb } from '../../../helpers/db.ts';

const LAST = new Date('2026-11-20T09:00:00Z');
const NOW = new Date('2026-11-21T09:00:00Z');
const FRESH = new Date('2026-11-21T06:15:00Z');

function row(n: number, over: Partial<NewPaper> = {}): NewPaper {
  return {
    arxivId: `2611.${String(20000 + n)}`,
    titleKey: `paper ${n}`,
    title: `Paper ${n}`,
    abstract: `Paper ${n} improves GRPO. It clips less. It also does more.`,
    rulesFamily: true,
    rulesScore: 0.8,
    families: ['GRPO'],
    topics: ['algorithm'],
    newsAt: FRESH,
    ...over,
  };
}

describe('loadChannelDigest', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDb();
    const inserted = await t.db
      .insert(papers)
      .values([
        row(1, { title: 'Fresh algorithm paper', hfUpvotes: 3 }),
        row(2, { title: 'Before the last digest', newsAt: new Date('2026-11-20T08:00:00Z') }),
        row(3, { title: 'Multimodal only', topics: ['multimodal'] }),
        row(4, { title: 'Low score', rulesScore: 0.3 }),
        row(5, { title: 'Not GRPO family', rulesFamily: false, rulesScore: 0.9 }),
        row(6, { title: 'Seed paper, never news', newsAt: null }),
        row(7, { title: 'Voted agents paper', topics: ['agents-tools'], rulesScore: 0.6 }),
        row(8, { title: 'After the post time', newsAt: new Date('2026-11-21T10:00:00Z') }),
        row(9, { title: 'Unclassified', rulesFamily: null, rulesScore: null }),
      ])
      .returning({ id: papers.id, title: papers.title });
    for (const p of inserted) id[p.title] = p.id;
    await t.db.insert(channels).values([
      { channelId: 'c-en', guildId: 'g1', topics: ['algorithm', 'agents-tools'], minScore: 0.5, lastDigestAt: LAST },
      { channelId: 'c-zh', guildId: 'g2', language: 'zh', lastDigestAt: LAST },
    ]);
    const [q] = await t.db
      .insert(queueItems)
      .values({ guildId: 'g1', paperId: id['Voted agents paper']!, nominatedBy: 'u1' })
      .returning();
    const [other] = await t.db
      .insert(queueItems)
      .values({ guildId: 'g2', paperId: id['Fresh algorithm paper']!, nominatedBy: 'u1' })
      .returning();
    await t.db.insert(votes).values([
      { queueItemId: q!.id, userId: 'u1' },
      { queueItemId: q!.id, userId: 'u2' },
      { queueItemId: other!.id, userId: 'u3' },
    ]);
    await t.db
      .insert(feedState)
      .values({ feed: 'arxiv-rss:cs.LG', health: 'ok', lastNewCount: 412, lastFamilyCount: 7, lastSuccessAt: FRESH });
  });

  it('is undefined for a channel without a digest', async () => {
    expect(await loadChannelDigest(t.db, 'nope', { now: NOW })).toBeUndefined();
  });

  it('selects news since the last digest, in the channel topics, at or above its minimum score, GRPO family only', async () => {
    const d = (await loadChannelDigest(t.db, 'c-en', { now: NOW }))!;
    expect(d.window).toEqual({ date: '2026-11-21', since: LAST, until: NOW });
    expect(d.input.papers.map((p) => p.title).sort()).toEqual(['Fresh algorithm paper', 'Voted agents paper']);
    expect(d.input.papers.find((p) => p.title === 'Voted agents paper')!.votes).toBe(2);
    expect(d.input.papers.find((p) => p.title === 'Fresh algorithm paper')!.votes).toBe(0);
    const messages = composeDigest(d.input);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.reply.content).toMatch(
      /^GRPO digest · 2026-11-21 · arXiv cs\.LG: 412 new, 7 GRPO-family\n2 new papers$/,
    );
    expect(messages[0]!.paperIds).toEqual([id['Fresh algorithm paper'], id['Voted agents paper']]);
  });

  it("takes every topic and score when the channel sets none, and counts only its own server's votes", async () => {
    const d = (await loadChannelDigest(t.db, 'c-zh', { now: NOW }))!;
    expect(d.input.papers.map((p) => p.title).sort()).toEqual([
      'Fresh algorithm paper',
      'Low score',
      'Multimodal only',
      'Voted agents paper',
    ]);
    expect(d.input.papers.find((p) => p.title === 'Fresh algorithm paper')!.votes).toBe(1);
    expect(d.input.papers.find((p) => p.title === 'Voted agents paper')!.votes).toBe(0);
  });

  it('renders a past date as at the post time of that day, one period back since it was the last digest', async () => {
    const d = (await loadChannelDigest(t.db, 'c-en', { now: NOW, date: '2026-11-20' }))!;
    expect(d.window).toEqual({ date: '2026-11-20', since: new Date('2026-11-19T09:00:00Z'), until: LAST });
    expect(d.input.papers.map((p) => p.title)).toEqual(['Before the last digest']);
  });
});

describe('digestSummaries', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let ids: number[];

  beforeAll(async () => {
    t = await createTestDb();
    ids = (
      await t.db
        .insert(papers)
        .values([
          row(1),
          row(2, { abstractZh: '中文摘要第一句。第二句。第三句。' }),
          row(3, { abstract: '', aiSummary: 'HF says it is good.' }),
          row(4),
        ])
        .returning({ id: papers.id })
    ).map((r) => r.id);
    const content = {
      tldr: 'LLM tldr.',
      motivation: 'm',
      method: ['a'],
      results: 'r',
      takeaways: 't',
      grpo_delta: {
        advantage_normalization: 'unchanged',
        clipping: 'changed: decoupled',
        kl_term: 'unchanged',
        loss_aggregation: 'changed: token-level',
        importance_sampling_level: 'unchanged',
        sampling_filtering: 'n/a',
        reward_type: 'unchanged',
      },
    };
    await t.db.insert(summaries).values([
      { paperId: ids[0]!, lang: 'en', promptVersion: 'v1', status: 'ok', content },
      { paperId: ids[3]!, lang: 'en', promptVersion: 'v1', status: 'failed', content: null, error: 'refused' },
      { paperId: ids[0]!, lang: 'zh', promptVersion: 'v1', status: 'ok', content: { ...content, tldr: '中文要点。' } },
    ]);
    await t.db.insert(notes).values({
      paperId: ids[3]!,
      source: 'seed:002',
      lang: 'zh',
      heading: '论文标题',
      motivation: '动机第一句。动机第二句。',
      body: 'body',
    });
  });

  it('prefers the LLM summary, then (Chinese) the seed note, then an extractive fallback', async () => {
    const en = await digestSummaries(t.db, ids, 'en');
    expect(en.get(ids[0]!)).toMatchObject({
      kind: 'llm',
      tldr: 'LLM tldr.',
      grpoDelta: { clipping: 'changed: decoupled', kl_term: 'unchanged' },
    });
    expect(en.get(ids[1]!)).toMatchObject({
      kind: 'fallback',
      tldr: expect.stringContaining('Paper 2 improves GRPO.'),
    });
    expect(en.get(ids[2]!)).toMatchObject({ kind: 'fallback', tldr: 'HF says it is good.' });
    expect(en.get(ids[3]!)).toMatchObject({ kind: 'fallback' });
    const zh = await digestSummaries(t.db, ids, 'zh');
    expect(zh.get(ids[0]!)).toMatchObject({ kind: 'llm', tldr: '中文要点。' });
    expect(zh.get(ids[1]!)).toMatchObject({ kind: 'fallback', tldr: expect.stringContaining('中文摘要第一句。') });
    expect(zh.get(ids[3]!)).toMatchObject({ kind: 'note', tldr: '论文标题' });
  });
});
