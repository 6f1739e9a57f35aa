import { labelsFor } from '../../../../src/core/digest/labels.ts';
import { describe, expect, it } from 'vitest';
import { syntheticDigestInputs } from '../../../../bench/digest.ts';
import { composeDigest } from '../../../../src/core/digest/compose.ts';
import type { DigestSummary } from '../../../../src/core/digest/types.ts';
import { allText, channel, input, limitViolations, LIVE_MENTION, NOW, paper } from './build.ts';

const long = (unit: string, n: number) => Array.from({ length: n }, (_, i) => `${unit}${i}`).join(' ');
const NASTY_TITLE = `@everyone <@123456789012345678> **Bold** _under_ $\\epsilon_{low}$-clipping | ${'x'.repeat(900)}`;
const ZH_TLDR = `本文提出一种新的组相对策略优化方法，${'通过解耦裁剪上下界与动态采样提升训练稳定性🚀'.repeat(300)}。@here <@&42>`;

function bigSummary(id: number): [number, DigestSummary] {
  return [
    id,
    {
      kind: 'llm',
      tldr: `${long('word', 3000)} <#987654321> @everyone`,
      grpoDelta: {
        clipping: `changed: decoupled ε_low/ε_high ${long('c', 400)}`,
        kl_term: 'removed',
        advantage_normalization: 'unchanged',
        reward_type: '<@1> @here rule-based',
      },
    },
  ];
}

describe('composeDigest', () => {
  it('posts nothing on a quiet day unless the channel asked for a notice', () => {
    expect(composeDigest(input([]))).toEqual([]);
    const notice = composeDigest(input([], { channel: channel({ quietDay: 'notice' }) }));
    expect(notice).toHaveLength(1);
    expect(notice[0]!.reply.content).toContain('No new GRPO-family papers since the last digest.');
    expect(notice[0]!.paperIds).toEqual([]);
  });

  it('reports a broken source even on a quiet day set to "nothing"', () => {
    const feeds = [
      {
        feed: 'arxiv-rss:cs.CL',
        health: 'stale',
        healthDetail: 'same 40 papers as on 2026-11-19: arXiv served an old batch',
        lastNewCount: 40,
        lastFamilyCount: 0,
        lastSuccessAt: NOW,
      },
    ];
    const [m] = composeDigest(input([], { feeds }));
    expect(m!.reply.content).toContain('⚠ arXiv cs.CL looks stale: same 40 papers as on 2026-11-19');
  });

  it('gives each paper its own message and thread name in a thread-per-paper channel', () => {
    const papers = [1, 2, 3].map((id) => paper(id, { title: `GRPO_${id}: *clipped* [ratio]` }));
    const messages = composeDigest(input(papers, { channel: channel({ threadPerPaper: true }) }));
    expect(messages.map((m) => m.paperIds.length)).toEqual([1, 1, 1]);
    expect(messages.map((m) => m.threadName).sort()).toEqual([
      'GRPO_1: *clipped* [ratio]',
      'GRPO_2: *clipped* [ratio]',
      'GRPO_3: *clipped* [ratio]',
    ]);
    expect(composeDigest(input(papers)).map((m) => m.threadName)).toEqual([undefined]);
  });

  it("puts what the header picture shows on a weekly digest's first message, counting every paper of the week, only when asked", () => {
    const papers = [1, 2, 3, 4].map((id) => paper(id, { families: id === 1 ? ['GSPO', 'GRPO'] : ['GRPO'] }));
    const weekly = channel({ cadence: 'weekly', headerImage: true, maxPapers: 2, threadPerPaper: true });
    const messages = composeDigest(input(papers, { channel: weekly }));
    expect(messages.map((m) => m.paperIds.length)).toEqual([1, 1]);
    // The week's four papers, though the digest shows two.
    expect(messages[0]!.picture).toEqual({
      date: '2026-11-21',
      total: 4,
      families: [
        { name: 'GRPO', count: 4 },
        { name: 'GSPO', count: 1 },
      ],
    });
    expect(messages[1]!.picture).toBeUndefined();
    expect(composeDigest(input(papers, { channel: channel({ cadence: 'weekly' }) }))[0]!.picture).toBeUndefined();
    expect(composeDigest(input(papers, { channel: channel({ headerImage: true }) }))[0]!.picture).toBeUndefined(); // daily: never
    expect(
      composeDigest(input([], { channel: channel({ cadence: 'weekly', headerImage: true, quietDay: 'notice' }) }))[0]!
        .picture,
    ).toBeUndefined();
  });

  it('writes the header with the date and per-feed counts', () => {
    const feeds = [
      { feed: 'hf-daily', health: 'ok', healthDetail: null, lastNewCount: 20, lastFamilyCount: 3, lastSuccessAt: NOW },
      {
        feed: 'arxiv-rss:cs.LG',
        health: 'ok',
        healthDetail: null,
        lastNewCount: 412,
        lastFamilyCount: 7,
        lastSuccessAt: NOW,
      },
    ];
    const [m] = composeDigest(input([paper(1)], { feeds }));
    expect(m!.reply.content!.split('\n')[0]).toBe(
      'GRPO digest · 2026-11-21 · arXiv cs.LG: 412 new, 7 GRPO-family · HF: 3',
    );
  });

  it('keeps every message within every Discord limit, in rank order, each paper exactly once, no live mention', () => {
    const papers = Array.from({ length: 23 }, (_, i) =>
      paper(i + 1, {
        title: `${NASTY_TITLE} ${i}`,
        familyScore: 1 - i / 100,
        authors: Array.from({ length: 400 }, (_, k) => `Author Number ${k} @everyone`),
        organization: `<@&555> ${'Org '.repeat(200)}`,
        families: ['GRPO', 'DAPO', 'GSPO'],
        topics: ['algorithm', 'math-code'],
        hfUpvotes: 1000 - i,
        githubStars: 5000,
        githubUrl: `https://github.com/${'a'.repeat(300)}/repo`,
      }),
    );
    const messages = composeDigest(
      input(
        papers,
        { channel: channel({ maxPapers: 23 }) },
        papers.map((p) => bigSummary(p.id)),
      ),
    );
    expect(limitViolations(messages)).toEqual([]);
    expect(messages).toHaveLength(5);
    expect(messages.flatMap((m) => m.paperIds)).toEqual(papers.map((p) => p.id));
    for (const m of messages) {
      expect(m.reply.components!.map((row) => row[0])).toEqual(
        m.paperIds.map((id) => expect.objectContaining({ kind: 'action', customId: `vote:${id}` })),
      );
      for (const t of allText(m)) expect(t).not.toMatch(LIVE_MENTION);
    }
    expect(messages[1]!.reply.content).toBe('GRPO digest · 2026-11-21 · part 2 of 5');
  });

  it('fits Chinese channels with Chinese labels, long Chinese text and astral characters', () => {
    const papers = Array.from({ length: 12 }, (_, i) =>
      paper(i + 1, { titleZh: `组相对策略优化🚀${'长标题'.repeat(200)}`, title: `${'𝔊𝔯𝔭𝔬 '.repeat(80)}${i}` }),
    );
    const sums = papers.map((p): [number, DigestSummary] => [
      p.id,
      { kind: p.id % 2 === 0 ? 'note' : 'fallback', tldr: ZH_TLDR },
    ]);
    const messages = composeDigest(input(papers, { channel: channel({ language: 'zh', maxPapers: 12 }) }, sums));
    expect(limitViolations(messages)).toEqual([]);
    expect(messages.flatMap((m) => m.paperIds)).toEqual(papers.map((p) => p.id));
    expect(messages[0]!.reply.content).toMatch(/^GRPO 论文日报 · 2026-11-21/);
    expect(messages[0]!.reply.components![0]![0]!.label).toBe('投票进读书会');
    const texts = messages.flatMap(allText);
    expect(texts.some((t) => t.includes('**要点** · *摘录，非 LLM 生成*'))).toBe(true);
    for (const t of texts) {
      expect(t).not.toMatch(LIVE_MENTION);
      expect(t).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no split surrogate pair
    }
  });

  it('speaks Chinese throughout a Chinese digest: link names, the family word, a weekly quiet day', () => {
    const [m] = composeDigest(
      input([paper(1, { githubUrl: 'https://github.com/x/y' })], { channel: channel({ language: 'zh' }) }),
    );
    const buttons = m!.reply.components![0]!.map((b) => b.label);
    expect(buttons).toContain('代码');
    expect(buttons).not.toContain('Code');
    expect(labelsFor('zh').quiet).not.toMatch(/日报|系列/); // a weekly digest is no 日报; the family is 家族
    expect(labelsFor('zh').feedCounts(3, 1)).toBe('新 3 篇，GRPO 家族 1 篇');
  });

  it('caps at maxPapers, best first, and says how many were left out', () => {
    const papers = [paper(1, { familyScore: 0.5 }), paper(2, { familyScore: 0.9 }), paper(3, { familyScore: 0.7 })];
    const [m] = composeDigest(input(papers, { channel: channel({ maxPapers: 2 }) }));
    expect(m!.paperIds).toEqual([2, 3]);
    expect(m!.reply.content).toContain('top 2 of 3 new papers');
  });

  it('filters by window, topics, minimum score and family, and never repeats a paper', () => {
    const papers = [
      paper(1),
      paper(1),
      paper(2, { newsAt: new Date('2026-11-19T00:00:00Z') }),
      paper(3, { topics: ['multimodal'] }),
      paper(4, { familyScore: 0.2 }),
      paper(5, { grpoFamily: false }),
      paper(6, { topics: ['math-code', 'agents-tools'] }),
    ];
    const messages = composeDigest(
      input(papers, { channel: channel({ topics: ['algorithm', 'agents-tools'], minScore: 0.5 }) }),
    );
    expect(messages.flatMap((m) => m.paperIds)).toEqual([1, 6]);
  });

  it('renders the card: escaped title linked to arXiv, byline, tags, TL;DR, compact delta, links and buttons', () => {
    const p = paper(7, {
      title: 'DAPO: *Decoupled* Clip_and $\\epsilon$ Sampling',
      organization: 'ByteDance Seed',
      hfUpvotes: 12,
      githubUrl: 'https://github.com/x/dapo',
      families: ['DAPO'],
      topics: ['algorithm'],
    });
    const [m] = composeDigest(
      input([p], {}, [
        [
          7,
          {
            kind: 'llm',
            tldr: 'Clip higher, sample dynamically.',
            grpoDelta: {
              clipping: 'changed: decoupled ε_low/ε_high',
              kl_term: 'removed',
              loss_aggregation: 'Unchanged.',
              reward_type: 'same as GRPO',
            },
          },
        ],
      ]),
    );
    const e = m!.reply.embeds![0]!;
    expect(e.title).toBe('DAPO: \\*Decoupled\\* Clip\\_and ε Sampling'); // LaTeX rendered as text, markdown escaped
    expect(e.url).toBe('https://arxiv.org/abs/2611.10007');
    expect(e.description).toContain('A. Author, B. Author · ByteDance Seed');
    expect(e.description).toContain('DAPO · #algorithm');
    expect(e.description).toContain('**TL;DR**\nClip higher, sample dynamically.');
    expect(e.fields).toContainEqual({
      name: 'Change vs GRPO',
      value: 'clipping: changed: decoupled ε\\_low/ε\\_high · KL: removed',
    });
    expect(e.fields!.find((f) => f.name === 'Links')!.value).toBe(
      '[PDF](https://arxiv.org/pdf/2611.10007v1) · [Hugging Face](https://huggingface.co/papers/2611.10007) · [Code](https://github.com/x/dapo)',
    );
    expect(e.footer).toContain('▲ 12 HF');
    expect(m!.reply.components).toEqual([
      [
        { kind: 'action', customId: 'vote:7', label: 'Vote for reading group', style: 'primary' },
        { kind: 'link', label: 'arXiv', url: 'https://arxiv.org/abs/2611.10007' },
        { kind: 'link', label: 'PDF', url: 'https://arxiv.org/pdf/2611.10007v1' },
        { kind: 'link', label: 'HF', url: 'https://huggingface.co/papers/2611.10007' },
        { kind: 'link', label: 'Code', url: 'https://github.com/x/dapo' },
      ],
    ]);
  });

  it('pings the configured role once, in the first message only', () => {
    const papers = Array.from({ length: 7 }, (_, i) => paper(i + 1));
    const messages = composeDigest(input(papers, { channel: channel({ pingRoleId: '4242' }) }));
    expect(messages[0]!.reply.content).toMatch(/^<@&4242> GRPO digest/);
    expect(messages[0]!.pingRoleId).toBe('4242');
    expect(messages[1]!.pingRoleId).toBeUndefined();
    expect(messages[1]!.reply.content).not.toContain('<@&');
  });

  it('is deterministic', () => {
    const papers = Array.from({ length: 9 }, (_, i) => paper(i + 1, { hfUpvotes: i % 3 }));
    expect(composeDigest(input(papers))).toEqual(composeDigest(input([...papers].reverse())));
  });

  it("keeps the bench's synthetic channels (long text, both languages, varied settings) within limits, each capped paper once", () => {
    for (const inp of syntheticDigestInputs({ channels: 200, papers: 150, seed: 7 })) {
      const messages = composeDigest(inp);
      expect(limitViolations(messages)).toEqual([]);
      const ids = messages.flatMap((m) => m.paperIds);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeLessThanOrEqual(inp.channel.maxPapers);
      for (const m of messages) {
        const [content = '', ...rest] = allText(m);
        expect(m.pingRoleId ? content.replace(`<@&${m.pingRoleId}> `, '') : content).not.toMatch(LIVE_MENTION);
        for (const t of rest) expect(t).not.toMatch(LIVE_MENTION);
      }
    }
  });
});
