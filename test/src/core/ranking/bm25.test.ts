import { describe, expect, it } from 'vitest';
import { SearchIndex, type IndexedPaper } from '../../../../src/core/ranking/bm25.ts';
import { parseQuery } from '../../../../src/core/ranking/query.ts';
import { correction } from '../../../../src/core/ranking/typo.ts';
import { zhDictionary } from '../../../../src/core/ranking/zh.ts';
import { ZH_GLOSSARY } from '../../../../src/core/ranking/glossary.ts';

let nextId = 1;
const paper = (title: string, abstract = '', extra: Partial<IndexedPaper> = {}): IndexedPaper => ({
  id: nextId++,
  title,
  abstract,
  body: '',
  zh: '',
  families: [],
  day: 20_000,
  ...extra,
});

/** Ten *-GRPO titles (the common word), one GSPO paper, one clipping paper, one text-to-image paper. */
function corpus() {
  const index = new SearchIndex();
  const variants = ['Rank', 'Seed', 'Flow', 'Dance', 'Critique', 'Tree', 'Vision', 'Audio', 'Table', 'Graph'].map((v) =>
    paper(
      `${v}-GRPO: Group Relative Policy Optimization for ${v} Tasks`,
      `We adapt GRPO to ${v.toLowerCase()} tasks with group-level rewards.`,
    ),
  );
  const gspo = paper(
    'Group Sequence Policy Optimization',
    'GSPO computes the importance ratio at the sequence level and performs sequence-level clipping.',
  );
  const clip = paper(
    'Clip-Higher and Decoupled Clipping for Stable RL',
    'Asymmetric clipping of the importance ratio keeps entropy from collapsing.',
  );
  const t2i = paper(
    'Reinforcing Text-to-Image Generation',
    'We train a text-to-image diffusion model with GRPO and a preference reward.',
  );
  for (const p of [...variants, gspo, clip, t2i]) index.add(p);
  return { index, variants, gspo, clip, t2i };
}
const top = (index: SearchIndex, q: string, n = 3) => index.search(parseQuery(q, dict), n).ranked.map((r) => r.id);
const dict = zhDictionary(
  new Map([
    ['有没有', 1000],
    ['工作', 1000],
    ['文生图', 10],
    ['训练', 1000],
  ]),
  Object.keys(ZH_GLOSSARY),
);

describe('search ranking', () => {
  it('lets a rare word outweigh a word in every title', () => {
    const { index, gspo } = corpus();
    expect(top(index, 'GSPO GRPO difference', 1)).toEqual([gspo.id]);
  });

  it('ignores question scaffolding', () => {
    const { index, gspo } = corpus();
    expect(top(index, 'What is the difference between GSPO and GRPO?')).toEqual(top(index, 'GSPO GRPO'));
    expect(top(index, 'are there any papers on sequence-level clipping?', 1)).toEqual([gspo.id]);
    expect(parseQuery('are there any papers on sequence-level clipping?').terms.map((t) => t.term)).not.toContain(
      'paper',
    );
  });

  it('ranks the paper that has the rare query word above papers that only share common ones', () => {
    const { index, clip, gspo } = corpus();
    const ranked = top(index, 'sequence-level clipping', 2);
    expect(ranked[0]).toBe(gspo.id);
    expect(ranked).toContain(clip.id);
  });

  it('reaches English abstracts from a Chinese question through the glossary', () => {
    const { index, t2i } = corpus();
    const q = parseQuery('有没有用 GRPO 做文生图的工作？', dict);
    expect(q.terms.map((t) => t.term)).toEqual(expect.arrayContaining(['grpo', 'text', 'imag']));
    expect(q.terms.map((t) => t.term)).not.toContain('有没有');
    expect(top(index, '有没有用 GRPO 做文生图的工作？', 1)).toEqual([t2i.id]);
  });

  it('finds Chinese notes by their bigrams', () => {
    const index = new SearchIndex();
    const noted = paper('A Paper Known by Its Title', '', { zh: '熵 坍缩 熵坍 策略' });
    index.add(paper('Unrelated Title'));
    index.add(noted);
    expect(top(index, '熵坍缩', 1)).toEqual([noted.id]);
  });

  it('is never empty when something matches: a long question returns its best partial match', () => {
    const { index, clip } = corpus();
    const rambling =
      'so our loss keeps doing weird things, honestly no idea why, we changed the learning rate twice, anyone seen asymmetric bounds help here?';
    expect(top(index, rambling, 1)).toEqual([clip.id]);
  });

  it('honours -exclusions and quoted phrases', () => {
    const { index, t2i, gspo } = corpus();
    expect(top(index, 'GRPO -diffusion', 20)).not.toContain(t2i.id);
    expect(top(index, '"sequence level" importance', 20)).toEqual([gspo.id]);
  });

  it('finds a paper by what a practitioner calls its problem, not by the question words', () => {
    const index = new SearchIndex();
    const reuse = paper('When to Stop Reusing Rollouts', 'Gradient gating decides when to stop reusing a batch.');
    const collapse = paper(
      'Keeping Exploration Alive',
      'We prevent entropy collapse in GRPO with elastic trust regions.',
    );
    const rollouts = paper(
      'When More Rollouts Do Not Help',
      'We study the group size and the number of rollouts per prompt.',
    );
    const dynamic = paper('Dynamic Sampling', 'Groups with zero advantage are filtered out by dynamic sampling.');
    for (const p of [reuse, collapse, rollouts, dynamic]) index.add(p);
    expect(top(index, 'how do I stop entropy collapse in GRPO?', 5)).toEqual([collapse.id]);
    expect(top(index, "what's the best number of samples per prompt", 1)).toEqual([rollouts.id]);
    expect(top(index, 'my rewards are all 0 or all 1, what do people do about it', 1)).toEqual([dynamic.id]);
    expect(top(index, '组里奖励都一样怎么办', 1)).toEqual([dynamic.id]);
  });

  it('prefers a method paper to a survey with the same words when the question is about GRPO training', () => {
    const index = new SearchIndex();
    const survey = paper(
      'Length Penalty in Reasoning: A Survey',
      'The length penalty in reasoning, and length penalties in GRPO.',
    );
    const method = paper('Reasoning with a Length Penalty', 'A length penalty for GRPO.');
    index.add(survey);
    index.add(method);
    expect(top(index, 'length penalty reasoning', 2)).toEqual([survey.id, method.id]);
    expect(top(index, 'length penalty reasoning in GRPO', 2)).toEqual([method.id, survey.id]);
  });

  it('gives the terms the best papers of a query share, for expanding a long question', () => {
    const index = new SearchIndex();
    const a = paper('Elastic Trust Regions', 'Policy entropy collapse is prevented by elastic trust regions.');
    const b = paper(
      'Variational Problem Synthesis',
      'Self-play keeps policy entropy from collapse with elastic problems.',
    );
    const c = paper('Video Grounding', 'Temporal grounding of video clips.');
    for (const p of [a, b, c]) index.add(p);
    const terms = index.feedbackTerms(parseQuery('my entropy keeps going down'), 5, 3).map((t) => t.term);
    expect(terms).toContain('elast');
    expect(terms).not.toContain('entropi'); // asked already
    expect(terms).not.toContain('video'); // in one paper only
  });

  it("sees a replaced paper's new text and forgets a removed one", () => {
    const { index, gspo } = corpus();
    index.add({ ...gspo, title: 'Renamed', abstract: 'nothing about that any more' });
    expect(top(index, 'GSPO', 5)).not.toContain(gspo.id);
    index.remove(gspo.id);
    expect(index.has(gspo.id)).toBe(false);
    expect(index.size).toBe(12);
  });

  it('corrects a misspelled word to the index term more papers share', () => {
    expect(
      correction('clippng', ['clip', 'clipping', 'clipboard'], (t) => ({ clipping: 3, clip: 9, clipboard: 1 })[t] ?? 0),
    ).toBe('clipping');
    expect(correction('grup', ['group', 'gru'], (t) => (t === 'group' ? 5 : 1))).toBe('group');
    expect(correction('xyz', ['xyz1'], () => 1)).toBeUndefined();
  });

  it('keeps British spellings and joined compounds findable', () => {
    const index = new SearchIndex();
    const p = paper('Regularised Multi-Turn Optimisation');
    index.add(p);
    expect(top(index, 'regularized multiturn optimization', 1)).toEqual([p.id]);
  });
});
