import { describe, expect, it } from 'vitest';
import { searchPapers } from '../../../../src/services/search/search.ts';
import { useSeededDb } from '../../../helpers/seeded.ts';

/**
 * Queries written for this test over the real seed corpus: paraphrases, questions, Chinese and
 * typos, each with the paper a reader would expect near the top.
 */
const CASES: { query: string; expect: string; within: number }[] = [
  {
    query: 'sequence-level importance ratio instead of token-level',
    expect: 'Group Sequence Policy Optimization',
    within: 1,
  },
  {
    query: 'why keep the KL penalty for visual spatial reasoning',
    expect: 'Improved Visual-Spatial Reasoning via R1-Zero-Like Training',
    within: 1,
  },
  {
    query: 'reinforcement learning at test time without labels',
    expect: 'TTRL: Test-Time Reinforcement Learning',
    within: 1,
  },
  {
    query: 'reward model trained from natural language critiques',
    expect: 'Reward Modeling from Natural Language Human Feedback',
    within: 3,
  },
  { query: 'Group Sequense Polcy Optimisation', expect: 'Group Sequence Policy Optimization', within: 1 },
  {
    query: 'GRPO for pathology images',
    expect: 'Patho-R1: A Multimodal Reinforcement Learning-Based Pathology Expert Reasoner',
    within: 3,
  },
  {
    query: 'merging checkpoints during pretraining',
    expect: 'Model Merging in Pre-training of Large Language Models',
    within: 1,
  },
  { query: '群组序列策略优化', expect: 'Group Sequence Policy Optimization', within: 1 },
  { query: '视觉空间推理', expect: 'Improved Visual-Spatial Reasoning via R1-Zero-Like Training', within: 3 },
  { query: '模型合并', expect: 'Model Merging in Pre-training of Large Language Models', within: 3 },
];

describe('searchPapers over the seed corpus', () => {
  const seeded = useSeededDb();

  for (const c of CASES) {
    it(`finds "${c.expect.slice(0, 40)}" within the top ${c.within} for "${c.query}"`, async () => {
      const { hits } = await searchPapers(seeded().db, c.query, { limit: c.within });
      expect(hits.map((h) => h.title)).toContain(c.expect);
    });
  }

  it('finds papers by a single Chinese character', async () => {
    const { hits } = await searchPapers(seeded().db, '熵', { limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
  });

  it('pages through results without repeating them', async () => {
    const first = await searchPapers(seeded().db, 'reinforcement learning reasoning', { limit: 5 });
    const second = await searchPapers(seeded().db, 'reinforcement learning reasoning', { limit: 5, offset: 5 });
    expect(first.hasMore).toBe(true);
    expect(second.hits).toHaveLength(5);
    const ids = new Set(first.hits.map((h) => h.id));
    expect(second.hits.filter((h) => ids.has(h.id))).toEqual([]);
  });

  it('treats search syntax in user input as text, never as an error', async () => {
    for (const q of ["'; drop table papers; --", 'a & b | !c', '"unclosed', '(((', ':*']) {
      await expect(searchPapers(seeded().db, q, { limit: 5 })).resolves.toBeDefined();
    }
  });

  it('says which words it searched as another spelling, and takes a quoted word as typed', async () => {
    const fixed = await searchPapers(seeded().db, 'grup sequense polcy', { limit: 3 });
    expect(fixed.corrections).toEqual([
      { typed: 'grup', shown: 'group' },
      { typed: 'sequense', shown: 'sequence' },
      { typed: 'polcy', shown: 'policy' },
    ]);
    expect(fixed.hits[0]!.title).toBe('Group Sequence Policy Optimization');
    expect((await searchPapers(seeded().db, 'quote', { limit: 3 })).corrections).toEqual([
      { typed: 'quote', shown: 'quite' },
    ]);
    const asTyped = await searchPapers(seeded().db, '"quote"', { limit: 3 });
    expect(asTyped).toMatchObject({ hits: [], corrections: [] });
    expect((await searchPapers(seeded().db, 'entropy collapse', { limit: 3 })).corrections).toEqual([]);
    // A word of the field no seed paper has is not a misspelling ("stale" is not "scale").
    expect((await searchPapers(seeded().db, 'off-policy GRPO with stale rollouts', { limit: 3 })).corrections).toEqual(
      [],
    );
  });

  it('requires every word of a quoted phrase', async () => {
    const phrase = await searchPapers(seeded().db, '"entropy collapse"', { limit: 200 });
    const words = await searchPapers(seeded().db, 'entropy collapse', { limit: 200 });
    expect(phrase.hits.length).toBeGreaterThan(0);
    // Without quotes, a paper with only one of the words (a "mode collapse" paper) is a partial match.
    expect(phrase.hits.length).toBeLessThan(words.hits.length);
    const ids = new Set(words.hits.map((h) => h.id));
    for (const h of phrase.hits) expect(ids.has(h.id)).toBe(true);
  });

  it('finds a paper by the words it shows, never by a citation key it does not', async () => {
    // Spectral Policy Optimization's abstract cites GRPO as \cite{Shao-2024-Deepseekmath}: shown "GRPO, known for".
    const spectral = 'Spectral Policy Optimization: Coloring your Incorrect Reasoning in GRPO';
    const byKey = await searchPapers(seeded().db, 'DeepSeekMath', { limit: 50 });
    expect(byKey.hits.map((h) => h.title)).not.toContain(spectral);
    // Its "insights from \citet{Xiong-2025-Minimalist}" shows as "[Xiong 2025]", which is searchable.
    const shown = await searchPapers(seeded().db, 'Xiong', { limit: 5 });
    expect(shown.hits.map((h) => h.title)).toContain(spectral);
  });

  it('returns nothing rather than everything for a query of only punctuation', async () => {
    expect((await searchPapers(seeded().db, '?!', { limit: 5 })).hits).toEqual([]);
  });
});
