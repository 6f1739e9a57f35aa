import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { papers, paperTexts, summaries } from '../../../../db/schema.ts';
import { changedAxesText, statedSettingsText } from '../../../../src/core/ranking/stated.ts';
import { searchPapers } from '../../../../src/services/search/search.ts';
import { createTestDb } from '../../../helpers/db.ts';

describe('what a paper states, as search text', () => {
  it('says what sets a paper apart: several group sizes, no KL, clip-higher; not a single G everyone states', () => {
    expect(statedSettingsText([{ key: 'group_size', value: '8' }])).toBe('');
    expect(statedSettingsText([{ key: 'group_size', value: '4 / 8 / 16' }])).toMatch(
      /^group size .* rollouts per prompt/,
    );
    expect(statedSettingsText([{ key: 'kl_coef', value: '0 (no KL term)' }])).toMatch(/no KL penalty/);
    expect(statedSettingsText([{ key: 'kl_coef', value: '0.04' }])).toBe('');
    expect(
      statedSettingsText([
        { key: 'clip_eps_low', value: '0.2' },
        { key: 'clip_eps_high', value: '0.28' },
      ]),
    ).toMatch(/clip-higher/);
    expect(statedSettingsText([{ key: 'base_model', value: 'Qwen2.5-Math-7B' }])).toBe('Qwen2.5-Math-7B');
  });

  it("names the GRPO-delta axes a summary marks changed, and nothing for 'unchanged' or 'n/a'", () => {
    expect(
      changedAxesText({ kl_term: 'changed: removed', clipping: 'unchanged', reward_type: 'n/a', other: 'changed: x' }),
    ).toBe('KL penalty removed');
    expect(changedAxesText(undefined)).toBe('');
  });
});

describe('searchPapers over stated settings and summaries', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await createTestDb();
    const rows = await t.db
      .insert(papers)
      .values(
        ['Policy Gradients for Verifiable Rewards', 'Reasoning with Verifiable Rewards', 'Policy Updates for Math'].map(
          (title, i) => ({
            arxivId: `2611.0400${i}`,
            title,
            titleKey: title.toLowerCase().replace(/[^a-z]/g, ''),
            abstract: 'We train a reasoning model with GRPO on math problems.',
          }),
        ),
      )
      .returning({ id: papers.id });
    ids.push(...rows.map((r) => r.id));
  });
  afterAll(() => t.close());

  it('finds a paper by what its full text states once the text is stored, and by the axes its summary changes', async () => {
    // Warm the index first: storing the text must move the paper's search revision (a trigger) for it to be re-read.
    expect((await searchPapers(t.db, 'group size', { limit: 3 })).hits).toEqual([]);
    await t.db.insert(paperTexts).values([
      {
        paperId: ids[0]!,
        version: 1,
        status: 'ok',
        url: 'https://arxiv.org/html/2611.04000v1',
        rulesSettings: [{ key: 'group_size', value: '4 / 8 / 16 / 64', evidence: 'G in {4, 8, 16, 64}' }],
      },
      {
        paperId: ids[1]!,
        version: 1,
        status: 'ok',
        url: 'https://arxiv.org/html/2611.04001v1',
        rulesSettings: [{ key: 'group_size', value: '8', evidence: 'G = 8' }],
      },
    ]);
    const found = await searchPapers(t.db, "what's the best group size for GRPO?", { limit: 3 });
    expect(found.hits[0]!.id).toBe(ids[0]);

    const delta = { kl_term: 'changed: removed entirely', clipping: 'unchanged' };
    await t.db.insert(summaries).values({
      paperId: ids[2]!,
      lang: 'en',
      promptVersion: 'v3',
      status: 'ok',
      content: { tldr: 'Policy updates for math.', grpo_delta: delta },
    });
    expect((await searchPapers(t.db, 'removing the KL penalty', { limit: 1 })).hits[0]!.id).toBe(ids[2]);
    // An axis marked unchanged is not searchable as if the paper changed it.
    expect((await searchPapers(t.db, 'clipping', { limit: 3 })).hits).toEqual([]);
  });
});
