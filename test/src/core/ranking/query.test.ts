import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src/core/ranking/query.ts';
import { ZH_GLOSSARY } from '../../../../src/core/ranking/glossary.ts';
import { SCAFFOLD_ZH } from '../../../../src/core/ranking/query.ts';
import { segment, zhDictionary } from '../../../../src/core/ranking/zh.ts';

const dict = zhDictionary(
  new Map([
    ['训练', 900],
    ['时', 800],
    ['怎么办', 300],
    ['论文', 500],
    ['有', 1000],
    ['没有', 900],
  ]),
  [...Object.keys(ZH_GLOSSARY), ...SCAFFOLD_ZH],
);
const terms = (q: string) => parseQuery(q, dict).terms.map((t) => t.term);

describe('question understanding', () => {
  it('drops English scaffolding and keeps the topic words', () => {
    expect(terms('What is the difference between GSPO and GRPO?')).toEqual(expect.arrayContaining(['gspo', 'grpo']));
    const hacking = parseQuery('are there papers on reward hacking? thanks')
      .terms.filter((t) => t.from !== 'zh')
      .map((t) => t.term);
    expect(hacking).toEqual(['reward', 'hack', 'reward hack']);
    expect(terms('how do I stop entropy collapse')).toEqual(expect.arrayContaining(['stop', 'entropi', 'collaps']));
  });

  it('weighs family names up', () => {
    const q = parseQuery('dapo clip higher');
    expect(q.terms.find((t) => t.term === 'dapo')).toMatchObject({ weight: 1.5, from: 'family' });
    expect(q.terms.find((t) => t.term === 'clip')).toMatchObject({ weight: 1, from: 'word' });
  });

  it('segments a Chinese question, drops its question words and translates field terms', () => {
    expect(segment('训练时熵塌缩怎么办', dict)).toEqual(['训练', '时', '熵塌缩', '怎么办']);
    const ts = terms('GRPO 训练时熵塌缩怎么办');
    expect(ts).toEqual(expect.arrayContaining(['grpo', 'train', 'entropi', 'collaps']));
    expect(ts).not.toContain('怎么办');
    expect(ts).not.toContain('练时');
  });

  it('keeps an unknown Chinese word as bigrams, so Chinese notes still match', () => {
    expect(terms('有没有遥测数据的论文')).toEqual(expect.arrayContaining(['遥测', 'data']));
  });

  it('falls back to every word when all of them are scaffolding, so a query is never empty', () => {
    expect(terms('papers')).toEqual(['paper']);
  });
});
