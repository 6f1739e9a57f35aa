import { describe, expect, it } from 'vitest';
import { cjkBigrams, latinPart } from '../../../../src/core/papers/search-terms.ts';

describe('cjkBigrams', () => {
  it('splits Chinese runs into overlapping bigrams and ignores Latin text', () => {
    expect(cjkBigrams('群组序列 GSPO 策略')).toEqual(['群组', '组序', '序列', '策略']);
  });

  it('keeps a lone character as itself', () => {
    expect(cjkBigrams('熵')).toEqual(['熵']);
  });
});

describe('latinPart', () => {
  it('keeps the method names and numbers inside a Chinese note', () => {
    expect(latinPart('无评论家方法（如GRPO和GSPO）在AIME24上，以Qwen2.5-Math-7B为骨干')).toBe(
      'GRPO GSPO AIME24 Qwen2.5-Math-7B',
    );
  });
});
