import { describe, expect, it } from 'vitest';
import { contextBonus } from '../../seeds/repair/context.ts';
import { damagedSlots, damageLikeSeeds, repairMojibake, slotsFor } from '../../seeds/repair/index.ts';
import { bundledModel } from '../../seeds/repair/model.ts';
import { splitPieces } from '../../seeds/repair/utf8.ts';
import { repairNotice } from '../../src/core/views/paper-card.ts';
import { noteLabel } from '../../src/services/summarize/show.ts';

const repair = (clean: string): string => repairMojibake(damageLikeSeeds(clean)).text;

/** The context bonus of each damaged slot of one run of clean text, damaged: slot index -> candidate -> bonus. */
function bonusesOf(clean: string): (ReadonlyMap<string, number> | undefined)[] {
  const piece = splitPieces(damageLikeSeeds(clean)).find((p) => p.kind === 'mojibake');
  if (piece?.kind !== 'mojibake') throw new Error('no mojibake');
  return [...contextBonus(slotsFor(piece.units, { endsText: false, beforeReplacement: false }), bundledModel())];
}

describe('repair by context (seeds/repair/context.ts)', () => {
  // Each sentence is from the seed notes or shaped like them; 与, 中 and 不 lose the same byte (ä¸).
  it.each([
    ['与…相比: a comparison opened by 与', '与基线模型相比，性能显著提升。'],
    ['与…不同: 与 even when 不 closes the frame', '与现有方法不同，该验证器仅基于结果进行训练。'],
    ['与…结合', '将困难问题与部分解决方案相结合。'],
    ['在…中: a place opened by 在', '在所有实验中平均比基线提高约3%。'],
    ['中 ends a noun phrase before punctuation', '在偏好比较中，该方法取得了最高的准确率。'],
    ['揭示了 (reveal), not 提示了', '这一发现揭示了推理行为潜在的可控性。'],
    ['偏好 (preference) stays whole', '人类偏好对齐旨在确保模型遵循人类价值观。'],
    ['不 negating an adjective', '可能与预期目的或伦理标准不一致。'],
  ])('%s', (_, sentence) => {
    expect(repair(sentence)).toBe(sentence);
  });

  it('supports 与 where a closer follows and 中 where 在 opens the clause', () => {
    const yu = bonusesOf('与基线模型相比');
    expect(yu[0]?.get('与')).toBeGreaterThan(0);
    const zhong = bonusesOf('在所有实验中平均');
    expect(zhong.find((b) => b?.has('中'))?.get('中')).toBeGreaterThan(0);
  });

  it('never lets a bare 不 win: 不 before a noun with no frame is penalised', () => {
    const bonuses = bonusesOf('效率与模型');
    expect(bonuses.some((b) => (b?.get('不') ?? 0) < 0)).toBe(true);
  });
});

describe('uncertainty marking', () => {
  it('counts close calls and marks their slots; a clear reading has none', () => {
    const clear = damagedSlots(damageLikeSeeds('强化学习'));
    expect(clear.uncertain).toBe(0);
    // X与Y with no closer: nothing but the nouns around tells 与 from 不 here, and the model is not sure.
    const pairing = damagedSlots(damageLikeSeeds('理论与实践'));
    expect(pairing.uncertain).toBeGreaterThan(0);
    const flagged = pairing.slots.filter((s) => s.uncertain);
    expect(flagged.length).toBe(pairing.uncertain);
    expect(flagged.map((s) => s.candidates)).toContainEqual(expect.arrayContaining(['与', '不', '中']));
  });

  it('shows an uncertain repair on the card and in the note label instead of presenting it as clean', () => {
    expect(repairNotice({ unresolvedChars: 0, uncertainChars: 0 })).toBe('');
    expect(repairNotice({ unresolvedChars: 0, uncertainChars: 3 })).toContain('修复不确定：3 个字符');
    expect(repairNotice({ unresolvedChars: 1, uncertainChars: 2 })).toContain('1 个字符无法修复');
    expect(noteLabel({ unresolvedChars: 0, uncertainChars: 0 })).toBe('人工笔记（种子语料，已修复编码）');
    expect(noteLabel({ unresolvedChars: 0, uncertainChars: 4 })).toContain('4 个字符由上下文推断');
  });
});
