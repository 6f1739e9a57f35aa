import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { papers } from '../../../../db/schema.ts';
import { retrievePapers } from '../../../../src/services/ask/retrieve.ts';
import { createTestDb } from '../../../helpers/db.ts';

describe('retrievePapers', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;

  beforeAll(async () => {
    t = await createTestDb();
    const paper = (i: number, title: string, abstract: string) => ({
      arxivId: `2611.0300${i}`,
      title,
      titleKey: title.toLowerCase().replace(/[^a-z]/g, ''),
      abstract,
    });
    await t.db
      .insert(papers)
      .values([
        paper(
          1,
          'Elastic Trust Regions Against Entropy Collapse',
          'Policy entropy collapses during RLVR; we keep it up.',
        ),
        paper(2, 'Self-Play Sustains Exploration', 'Variational problems prevent entropy collapse and keep pass@k.'),
        paper(
          3,
          'Oversquashing in Graph Foundation Models',
          'Node representations of deep message-passing networks collapse as layers are added.',
        ),
      ]);
  });
  afterAll(() => t.close());

  it('leaves out a paper that shares only a side word of the question, so /ask never cites it', async () => {
    const { papers: found } = await retrievePapers(t.db, 'entropy collapse', { k: 8 });
    expect(found.map((p) => p.title)).toEqual([
      'Elastic Trust Regions Against Entropy Collapse',
      'Self-Play Sustains Exploration',
    ]);
    expect((await retrievePapers(t.db, 'entropy collapse', { k: 8, offset: 1 })).papers.map((p) => p.title)).toEqual([
      'Self-Play Sustains Exploration',
    ]);
    expect((await retrievePapers(t.db, 'graph oversquashing collapse', { k: 8 })).papers[0]!.title).toBe(
      'Oversquashing in Graph Foundation Models',
    );
  });

  it('says which misspelled words of the question it searched as others', async () => {
    const { papers, corrections } = await retrievePapers(t.db, 'entropy colapse', { k: 8 });
    expect(corrections).toEqual([{ typed: 'colapse', shown: 'collapse' }]);
    expect(papers[0]!.title).toBe('Elastic Trust Regions Against Entropy Collapse');
  });
});
