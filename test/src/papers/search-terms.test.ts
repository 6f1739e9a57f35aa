import { describe, expect, it } from 'vitest';
import { cjkBigrams, latinPart, searchTerms } from '../../../src/papers/search-terms.ts';

describe('cjkBigrams', () => {
  it('splits Chinese runs into overlapping bigrams and ignores Latin text', () => {
    expect(cjkBigrams('群组序列 GSPO 策略')).toEqual(['群组', '组序', '序列', '策略']);
  });

  it('keeps a lone character as itself', () => {
    expect(cjkBigrams('熵')).toEqual(['熵']);
  });
});

describe('searchTerms', () => {
  it('drops question filler from the any-word list but keeps the typed text for the all-words match', () => {
    const t = searchTerms('Which papers remove the KL penalty?');
    expect(t.words).toEqual(['remove', 'the', 'kl', 'penalty']);
    expect(t.text).toBe('Which papers remove the KL penalty?');
    expect(t.strictOnly).toBe(false);
  });

  it('honours search syntax strictly when the user writes quotes or exclusions', () => {
    expect(searchTerms('"clip higher" -survey').strictOnly).toBe(true);
  });

  it('separates Chinese from Latin words in a mixed query', () => {
    const t = searchTerms('GRPO 熵崩溃');
    expect(t.words).toEqual(['grpo']);
    expect(t.zh).toEqual(['熵崩', '崩溃']);
  });

  it('keeps only letters and digits in words so they are safe inside to_tsquery', () => {
    expect(searchTerms("clip-higher & (dapo) | x'; drop").words).toEqual(['clip', 'higher', 'dapo', 'drop']);
  });
});

describe('latinPart', () => {
  it('keeps the method names and numbers inside a Chinese note', () => {
    expect(latinPart('无评论家方法（如GRPO和GSPO）在AIME24上，以Qwen2.5-Math-7B为骨干')).toBe('GRPO GSPO AIME24 Qwen2.5-Math-7B');
  });
});
