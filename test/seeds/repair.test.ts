import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CP1254_DECODE, CP1254_UNDEFINED, DROPPED_BYTES } from '../../seeds/repair/cp1254.ts';
import { damageLikeSeeds, repairMojibake } from '../../seeds/repair/index.ts';
import { measureRoundTrip } from '../../seeds/repair/round-trip.ts';
import { canLoseByte } from '../../seeds/repair/utf8.ts';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const seedFile = (prefix: string): string =>
  read(
    `seeds/data/${prefix === '002' ? '002_a81174bf10e69837' : prefix === '003' ? '003_88d86c2b4bae0f67' : '000_6574d9ab2312a4e4'}.txt`,
  );
const damagedSeeds = [seedFile('002'), seedFile('003')];
let repairedSeeds: ReturnType<typeof repairMojibake>[] | undefined;
/** The two seed files repaired (once: it takes a few seconds). */
const repairSeeds = (): ReturnType<typeof repairMojibake>[] =>
  (repairedSeeds ??= damagedSeeds.map((text) => repairMojibake(text)));

/** A cp1254 character standing for a UTF-8 lead byte, followed by one standing for a continuation byte. */
const LEFTOVER_MOJIBAKE = new RegExp(
  `[${[...Array(0x40).keys()].map((k) => CP1254_DECODE[0xc0 + k] ?? '').join('')}][${[...Array(0x40).keys()]
    .map((k) => CP1254_DECODE[0x80 + k] ?? '')
    .join('')
    .replace(/[\]\\^-]/g, '\\$&')}]`,
  'u',
);

describe('cp1254 tables', () => {
  it('leaves exactly the seven bytes Windows-1254 does not define undefined', () => {
    expect(CP1254_UNDEFINED).toEqual([0x81, 0x8d, 0x8e, 0x8f, 0x90, 0x9d, 0x9e]);
    expect(CP1254_DECODE[0xf0]).toBe('ğ');
    expect(CP1254_DECODE[0x80]).toBe('€');
  });

  it('drops the soft hyphen too, as the seeds do (no 0xAD anywhere in 002/003)', () => {
    expect(DROPPED_BYTES).toContain(0xad);
    for (const text of damagedSeeds) expect(text).not.toContain('\u00ad');
  });
});

describe('damageLikeSeeds', () => {
  it('damages like the seed files', () => {
    expect(damageLikeSeeds('论文解读')).toBe('è®ºæ–‡è§£è¯»');
    expect(damageLikeSeeds('🌟')).toBe('ğŸŒŸ');
    expect(damageLikeSeeds('训练')).toBe('è®ç»ƒ'); // 训 = E8 AE AD, the 0xAD is gone
    expect(damageLikeSeeds('plain ASCII')).toBe('plain ASCII');
  });

  it('is undone by the repair on the real seed files, byte for byte', () => {
    repairSeeds().forEach((result, k) => expect(damageLikeSeeds(result.text)).toBe(damagedSeeds[k]));
  }, 60_000);
});

describe('repairMojibake', () => {
  // Phrases of the real notes: each damaged form occurs in file 002 or 003 as is.
  const realPhrases = [
    '🌟 论文解读',
    '### 🌟 论文解读 | 探索大型推理模型的高效推理',
    '训练',
    '学习',
    '强化学习',
    '从预训练到监督微调、强化学习再到推理阶段',
    '在推理过程中通过增加链式思维',
    '训练中',
    '其中',
    '### 📈 实验结果',
  ];
  it.each(realPhrases)('restores %s exactly', (clean) => {
    const damaged = damageLikeSeeds(clean);
    expect(damagedSeeds.some((text) => text.includes(damaged))).toBe(true);
    const result = repairMojibake(damaged);
    expect(result.text).toBe(clean);
    expect(result.unresolved).toBe(0);
    expect(result.restored).toBe(Array.from(clean).filter(canLoseByte).length);
  });

  it('passes through text that is not mojibake', () => {
    for (const text of [
      'plain ASCII, digits 123 and **markdown**',
      '已经正确的中文文本不应改变。🌟',
      'café” and naïve — “quoted” Schrödinger',
      '',
    ]) {
      expect(repairMojibake(text)).toEqual({ text, restored: 0, unresolved: 0, uncertain: 0 });
    }
  });

  it('repairs two-byte mojibake and keeps the ASCII around it', () => {
    expect(repairMojibake(damageLikeSeeds('R² = 0.9, ΔW and 8.76%，结果')).text).toBe('R² = 0.9, ΔW and 8.76%，结果');
  });

  it('marks a character cut off at the end with U+FFFD', () => {
    const cut = damageLikeSeeds('强化学习的').slice(0, -1); // 的 = E7 9A 84 loses its last byte
    expect(repairMojibake(cut)).toMatchObject({ text: '强化学习\uFFFD', restored: 1, unresolved: 1 });
    expect(repairMojibake(`${cut}\uFFFD`)).toMatchObject({ text: '强化学习\uFFFD', restored: 1, unresolved: 1 });
  });

  it('keeps and counts U+FFFD already in the text', () => {
    expect(repairMojibake(`${damageLikeSeeds('已经过去')} \uFFFD end`)).toMatchObject({
      text: '已经过去 \uFFFD end',
      restored: 2,
      unresolved: 1,
    });
  });

  it('leaves no mojibake in the real seed notes', () => {
    let restored = 0;
    let unresolved = 0;
    repairSeeds().forEach((result, k) => {
      expect(LEFTOVER_MOJIBAKE.test(damagedSeeds[k] ?? '')).toBe(true);
      const outsideMarks = result.text.split('\uFFFD').join(' ');
      expect(outsideMarks.match(LEFTOVER_MOJIBAKE)).toBeNull();
      expect(outsideMarks).not.toMatch(/ğŸ|è®|ä¸|å¤|æ¨/u);
      expect(outsideMarks).toMatch(/论文解读/u);
      restored += result.restored;
      unresolved += result.unresolved;
    });
    console.log(`real seeds 002+003: ${restored} characters restored, ${unresolved} unresolved`);
    expect(restored).toBeGreaterThan(10_000);
  }, 60_000);
});

describe('round trip on clean Chinese (not used to build the model)', () => {
  it('restores at least 97% of the damaged characters exactly', () => {
    // The model's domain counts come from files 002/003 only; 000 and the fixture are unseen.
    const result = measureRoundTrip([seedFile('000'), read('test/fixtures/clean-zh.txt')]);
    console.log(
      `round trip: ${result.damaged} characters damaged, ${result.exact} restored exactly, rate ${result.rate.toFixed(4)}` +
        `; misses: ${result.misses.map((m) => `${m.expected}->${m.got}`).join(' ')}`,
    );
    expect(result.damaged).toBeGreaterThan(300);
    expect(result.collateral).toBe(0);
    expect(result.rate).toBeGreaterThanOrEqual(0.97);
  }, 60_000);
});
