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
      .terms.filter((t) => t.from !== 'zh' && t.from !== 'vocabulary')
      .map((t) => t.term);
    expect(hacking).toEqual(['reward', 'hack', 'reward hack']);
    expect(terms('how do I stop entropy collapse')).toEqual(expect.arrayContaining(['entropi', 'collaps']));
  });

  it('never matches question words and problem verbs as content', () => {
    const typed = (q: string) =>
      parseQuery(q, dict)
        .terms.filter((t) => t.from === 'word' || t.from === 'family' || t.from === 'glossary')
        .map((t) => t.term);
    expect(typed('how do I stop entropy collapse in GRPO')).toEqual(['entropi', 'collaps', 'grpo']);
    expect(typed("what's the best way to fix reward hacking? any tips")).toEqual(['reward', 'hack']);
    expect(typed('熵坍缩怎么办')).toEqual(['entropi', 'collaps']);
    expect(typed('如何避免奖励作弊')).toEqual(['reward', 'hack']);
    // Quoted, a question word is content after all.
    expect(typed('"stop" tokens')).toEqual(['stop', 'token']);
  });

  it("maps a practitioner's problem to the field's terms, in English and Chinese, below the words typed", () => {
    const added = (q: string) =>
      parseQuery(q, dict)
        .terms.filter((t) => t.from === 'vocabulary')
        .map((t) => t.term);
    expect(parseQuery('what is the best group size for GRPO', dict).problems).toEqual(['group size']);
    expect(added('how many rollouts per prompt')).toEqual(expect.arrayContaining(['group', 'size', 'budget']));
    expect(added('my model rambles, answers are way too long')).toEqual(
      expect.arrayContaining(['length', 'penalti', 'overthink', 'effici']),
    );
    expect(added('推理模型输出太长怎么办')).toEqual(expect.arrayContaining(['length', 'penalti', 'overthink']));
    expect(added('we have no ground truth for these prompts')).toEqual(
      expect.arrayContaining(['label', 'free', 'unsupervis', 'self', 'reward']),
    );
    expect(added('没有标准答案能做 RL 吗')).toEqual(expect.arrayContaining(['label', 'unsupervis']));
    expect(added('rewards are all 0 or all 1 in most groups')).toEqual(
      expect.arrayContaining(['zero', 'advantag', 'dynam']),
    );
    expect(added('组里奖励都一样，advantage 直接是 0')).toEqual(expect.arrayContaining(['zero', 'dynam']));
    expect(added('off-policy updates on stale rollouts')).toEqual(expect.arrayContaining(['asynchron', 'replai']));
    const q = parseQuery('rewards are all 0 or all 1', dict);
    expect(q.terms.find((t) => t.term === 'reward')).toMatchObject({ weight: 1, from: 'word' });
    expect(q.terms.find((t) => t.term === 'dynam')).toMatchObject({ weight: 0.5, from: 'vocabulary' });
    expect(q.familyContext).toBe(true);
    expect(parseQuery('graph neural networks', dict).familyContext).toBe(false);
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
