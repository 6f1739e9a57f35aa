import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mergeSeedPapers, type MergedSeedPaper } from '../../seeds/corpus.ts';
import { parseCitationHub } from '../../seeds/parse/citation-hub.ts';
import { parseHfSearch } from '../../seeds/parse/hf-search.ts';
import { loadSeedCorpus, parseSeedFile, seedFileOf, type SeedCorpus } from '../../seeds/parse/index.ts';
import { parsePaperList } from '../../seeds/parse/paper-list.ts';
import type { SeedFile, SeedPaper } from '../../src/core/seeds/types.ts';
import { titleKey } from '../../src/core/papers/identity.ts';

const DATA = path.resolve(import.meta.dirname, '../../seeds/data');
const seedText = (file: SeedFile) =>
  readFileSync(
    path.join(
      DATA,
      readdirSync(DATA).find((n) => n.startsWith(`${file}_`))!,
    ),
    'utf8',
  );
const byTitle = <T extends { title: string }>(list: T[], title: string): T => {
  const found = list.find((p) => titleKey(p.title) === titleKey(title));
  if (!found) throw new Error(`no paper titled "${title}"`);
  return found;
};
const noRepair = (text: string) => ({ text, restored: 0, unresolved: 0 });

let corpus: SeedCorpus;
let merged: MergedSeedPaper[];
beforeAll(async () => {
  corpus = await loadSeedCorpus(DATA);
  merged = mergeSeedPapers(corpus.papers);
});

describe('loadSeedCorpus', () => {
  it('reads every entry of the five files when given the seed directory', () => {
    const perFile = Object.fromEntries(
      ['000', '001', '002', '003', '004'].map((f) => [f, corpus.papers.filter((p) => p.file === f).length]),
    );
    // 001: the hub (GSPO) plus its 50 citing papers; 004: 58 search results, some without a meta line.
    expect(perFile).toEqual({ '000': 3, '001': 51, '002': 79, '003': 51, '004': 58 });
  });

  it('links the 50 citing papers to GSPO when the hub page itself prints no id', () => {
    expect(corpus.citations).toHaveLength(50);
    expect(new Set(corpus.citations.map((c) => c.citedArxivId))).toEqual(new Set(['2507.18071']));
    expect(corpus.citations.every((c) => c.context.length > 20)).toBe(true);
  });
});

describe('mergeSeedPapers', () => {
  it('yields 238 papers, 133 with an arXiv id and 130 with a note, for the seed corpus', () => {
    expect(merged).toHaveLength(238);
    expect(merged.filter((p) => p.arxivId)).toHaveLength(133);
    expect(merged.filter((p) => p.note)).toHaveLength(130);
  });

  it('merges a title listed in two files into one paper that keeps both entries', () => {
    const shared = merged.filter((p) => p.entries.some((e) => e.file === '004') && p.entries.length > 1);
    expect(shared.map((p) => p.entries.map((e) => e.file).join('+')).sort()).toEqual(['002+004', '002+004', '003+004']);
    const thinkOrNot = byTitle(
      merged,
      'Think or Not? Selective Reasoning via Reinforcement Learning for Vision-Language Models',
    );
    expect(thinkOrNot).toMatchObject({
      arxivId: '2505.16854',
      authorCount: 4,
      hfUpvotes: 3,
      publishedOn: '2025-05-22',
    });
    expect(thinkOrNot.note?.body).toBeTruthy();
  });

  it('keeps two papers apart when their titles share the "S-GRPO:" prefix', () => {
    const sGrpo = merged.filter((p) => p.title.startsWith('S-GRPO:'));
    expect(sGrpo.map((p) => p.entries.map((e) => e.file).join('+')).sort()).toEqual(['001', '002+004']);
    expect(byTitle(sGrpo, 'S-GRPO: Early Exit via Reinforcement Learning in Reasoning Models').arxivId).toBe(
      '2505.07686',
    );
  });

  it('combines the curated entry and the hub entry of GSPO', () => {
    const gspo = merged.find((p) => p.arxivId === '2507.18071')!;
    expect(gspo.entries.map((e) => `${e.file}:${e.entryId}`)).toEqual(['000:2507.18071', '001:hub']);
    expect(gspo).toMatchObject({
      title: 'Group Sequence Policy Optimization',
      titleZh: '群组序列策略优化',
      organization: '阿里',
    });
    expect(gspo.abstractZh).toMatch(/^本文介绍了群组序列策略优化/);
  });

  it('keeps the papers apart when the same title carries two different arXiv ids', () => {
    const a: SeedPaper = { file: '002', entryId: 'a', arxivId: '2501.00001', title: 'Same Title' };
    const b: SeedPaper = { file: '003', entryId: 'b', arxivId: '2501.00002', title: 'Same title.' };
    const c: SeedPaper = { file: '004', entryId: 'c', title: 'SAME TITLE', hfUpvotes: 5 };
    expect(mergeSeedPapers([a, b, c]).map((p) => p.entries.map((e) => e.entryId))).toEqual([['a', 'c'], ['b']]);
  });
});

describe('parseCurated', () => {
  it('reads links, organisation and both languages when given file 000', () => {
    const glm = corpus.papers.find((p) => p.file === '000' && p.arxivId === '2507.01006')!;
    expect(glm).toMatchObject({ organization: '清华大学', githubUrl: 'https://github.com/zai-org/GLM-V' });
    expect(glm.titleZh).toMatch(/^GLM-4\.1V-Thinking:面向通用多模态推理/);
    expect(glm.abstract).toMatch(/^We present GLM-4\.1V-Thinking/);
    const survey = corpus.papers.find((p) => p.arxivId === '2507.13334')!;
    expect(survey.organization).toBeUndefined();
    expect(survey.titleZh).toBe('大语言模型上下文工程综述');
  });
});

describe('parseCitationHub', () => {
  const page = seedText('001');

  it('pairs each explorer title with the summary below it', () => {
    const { papers, citations } = parseCitationHub(page, '2507.18071');
    expect(papers[1]).toMatchObject({
      entryId: 'citing-01',
      title: 'ElasticMem: Latent Memory as a Learnable Resource for LLM Agents',
    });
    const physics = byTitle(papers, 'Physics-R1: An Audited Olympiad Corpus and Recipe for Visual Physics Reasoning');
    expect(physics.citationContext).toMatch(/^Audited olympiad corpus and Physics-R1 recipe/);
    expect(
      byTitle(
        citations.map((c) => ({ ...c, title: c.citingTitle })),
        physics.title,
      ).context,
    ).toBe(physics.citationContext);
  });

  it('ignores the summary-only lines above the explorer', () => {
    const { papers } = parseCitationHub(page, '2507.18071');
    expect(papers.some((p) => p.title.startsWith('ElasticMem enables'))).toBe(false);
    expect(papers.every((p) => p.title.length < 160)).toBe(true);
  });

  it('refuses to guess the hub id when parseSeedFile is not given one', () => {
    expect(() => parseSeedFile('001_x.txt', page)).toThrow(/hub's arXiv id/);
  });
});

describe('parsePaperList', () => {
  it('reads month, versioned pdf link and cleaned code link when given file 002', () => {
    const ttrl = corpus.papers.find((p) => p.file === '002' && p.arxivId === '2504.16084')!;
    expect(ttrl).toMatchObject({
      title: 'TTRL: Test-Time Reinforcement Learning',
      arxivVersion: 2,
      publishedOn: '2025-04',
    });
    expect(ttrl).toMatchObject({
      pdfUrl: 'http://arxiv.org/pdf/2504.16084v2',
      githubUrl: 'https://github.com/PRIME-RL/TTRL',
    });
    const p = (id: string) => corpus.papers.find((x) => x.arxivId === id)!;
    expect(p('2505.11404').githubUrl).toBe('https://github.com/Wenchuan-Zhang/Patho-R1'); // stray final "."
    expect(p('2502.12018').githubUrl).toBe('https://github.com/qixucen/atom'); // LaTeX "}{...}" leftover
    expect(p('2505.16761')).toMatchObject({ projectUrl: 'https://hitcslj.github.io/mesh-rft' });
    expect(p('2504.13055')).not.toHaveProperty('githubUrl'); // empty [[Code/Page]()]
    expect(p('2506.15651')).toMatchObject({
      file: '003',
      publishedOn: '2025-06',
      githubUrl: 'https://github.com/cxcscmu/AutoRule',
    });
  });

  it('unwraps the hard-wrapped abstract and keeps the code fences of 003 out of it', () => {
    const notes = corpus.papers.filter((p) => p.note);
    // LaTeX quotes (``test-time computing'') are the arXiv original and stay; fences must not.
    expect(notes.every((p) => p.abstract && !/\n|```/.test(p.abstract))).toBe(true);
    expect(corpus.papers.find((p) => p.arxivId === '2504.16084')!.abstract).toMatch(
      /^This paper investigates Reinforcement Learning \(RL\) on data without explicit labels/,
    );
  });

  it('repairs every note and splits it into its sections', () => {
    const notes = corpus.papers.flatMap((p) => (p.note ? [p.note] : []));
    expect(notes).toHaveLength(130);
    for (const note of notes) {
      expect(note.body).toContain('论文解读');
      expect(note.body).not.toMatch(/è®º|ğŸ/); // no mojibake left in the markers
      expect([note.heading, note.motivation, note.results, note.takeaways].every((s) => s.length > 0)).toBe(true);
      expect(note.method.length).toBeGreaterThan(0);
    }
    const ttrl = corpus.papers.find((p) => p.arxivId === '2504.16084')!.note!;
    expect(ttrl.heading).toContain('TTRL');
  });

  it('passes the damaged note to the repair and takes sections from its output', () => {
    const repair = vi.fn(noRepair);
    const papers = parsePaperList(seedText('002'), { file: '002', repair });
    expect(repair).toHaveBeenCalledTimes(79);
    expect(repair.mock.calls[0]?.[0]).toMatch(/^### ğŸŒŸ è®ºæ–‡è§£è¯» \|/);
    expect(papers[0]?.note?.body).toBe(repair.mock.calls[0]?.[0]);
  });

  it('keeps what is there when a note lacks sections or is cut off', () => {
    const text = [
      '- [25/05] **A Paper: With a Short Note**  ',
      '[[Paper](http://arxiv.org/pdf/2505.00001v4)] [[Code/Page]()] [[TLDR/Notes](#a-paper)]',
      '',
      '# TLDR/Notes',
      '## a-paper',
      '### Abstract',
      'Line one',
      'line two.',
      '### 🌟 论文解读 | 短笔记',
      '### 🚀 核心方法',
      '💡 创新点1：名字',
      '第一点',
      '💡 创新点2',
      '第二点被截',
    ].join('\n');
    const [paper] = parsePaperList(text, { file: '002', repair: noRepair });
    expect(paper).toMatchObject({ arxivId: '2505.00001', arxivVersion: 4, abstract: 'Line one line two.' });
    expect(paper?.note).toMatchObject({
      heading: '短笔记',
      motivation: '',
      results: '',
      takeaways: '',
      method: ['名字\n第一点', '第二点被截'],
    });
  });
});

describe('parseHfSearch', () => {
  const papers = parseHfSearch(seedText('004'));

  it('reads authors or organisation, date and upvotes when given file 004', () => {
    expect(byTitle(papers, 'Think-RM: Enabling Long-Horizon Reasoning in Generative Reward Models')).toMatchObject({
      authorCount: 11,
      publishedOn: '2025-05-22',
      hfUpvotes: 2,
    });
    expect(
      byTitle(papers, 'Knapsack RL: Unlocking Exploration of LLMs via Optimizing Budget Allocation'),
    ).toMatchObject({ organization: 'ByteDance Seed', hfUpvotes: 2 });
    expect(byTitle(papers, 'Neural Common Neighbor with Completion for Link Prediction')).toMatchObject({
      publishedOn: '2023-02-02',
    });
    expect(byTitle(papers, 'Neural Common Neighbor with Completion for Link Prediction')).not.toHaveProperty(
      'hfUpvotes',
    );
  });

  it('dates year-less entries in the year after the latest explicit one', () => {
    // "Jan 28 20": the page's current year (2026, since it also shows "Dec 25, 2025"), 20 upvotes.
    const harder = papers.find((p) => p.title.startsWith('Harder Is Better'))!;
    expect(harder).toMatchObject({ organization: 'AMAP-ML', publishedOn: '2026-01-28', hfUpvotes: 20 });
    expect(
      parseHfSearch(seedText('004'), { currentYear: 2030 }).find((p) => p.title.startsWith('Harder'))?.publishedOn,
    ).toBe('2030-01-28');
  });

  it('keeps entries whose meta block is missing', () => {
    const bare = papers.filter((p) => !p.publishedOn && !p.authorCount && !p.organization);
    expect(bare.map((p) => p.title.split(':')[0])).toEqual([
      'Beyond Length Scaling',
      'Self-Hinting Language Models Enhance Reinforcement Learning',
      'Unveiling Implicit Advantage Symmetry',
    ]);
    expect(bare.every((p) => p.abstract && p.abstract.length > 1000)).toBe(true);
    expect(papers.at(-1)).toMatchObject({ authorCount: 4, publishedOn: '2025-07-06' });
  });
});

describe('seedFileOf', () => {
  it('maps file names to seed files and rejects others', () => {
    expect(seedFileOf('seeds/data/002_a81174bf10e69837.txt')).toBe('002');
    expect(seedFileOf('005_x.txt')).toBeNull();
    expect(seedFileOf('README.md')).toBeNull();
  });
});
