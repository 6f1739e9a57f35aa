import { describe, expect, it } from 'vitest';
import { digestPicture, digestPictureAlt, digestWeekSpec } from '../../../../src/core/pictures/digest-week.ts';
import { drawChart } from '../../../../src/services/render/picture.ts';
import { readPng } from '../../../helpers/png.ts';

describe("the weekly digest's header picture", () => {
  it("counts the week's papers by family, largest first, with the rest and the unnamed last", () => {
    const papers = [
      ...Array.from({ length: 5 }, () => ({ families: ['GRPO'] })),
      ...Array.from({ length: 3 }, () => ({ families: ['GSPO', 'GRPO'] })),
      ...['DAPO', 'Dr. GRPO', 'GMPO', 'GPG', 'CISPO', 'DisCO', 'RLVR'].map((f) => ({ families: [f, f] })),
      { families: [] },
      { families: [] },
    ];
    const p = digestPicture(papers, '2026-11-23');
    expect(p.total).toBe(17);
    expect(p.families).toEqual([
      { name: 'GRPO', count: 8 },
      { name: 'GSPO', count: 3 },
      { name: 'CISPO', count: 1 },
      { name: 'DAPO', count: 1 },
      { name: 'DisCO', count: 1 },
      { name: 'Dr. GRPO', count: 1 },
      { name: 'other families', count: 3 },
      { name: 'no named family', count: 2 },
    ]);
    expect(digestPictureAlt(p)).toMatch(
      /^Bar chart of the week's 17 GRPO-family papers by family: GRPO 8, GSPO 3, .*no named family 2\.$/,
    );
  });

  it('draws one labelled bar per family', async () => {
    const p = digestPicture([{ families: ['GRPO'] }, { families: ['GRPO', 'GSPO'] }], '2026-11-23');
    const picture = await drawChart(digestWeekSpec(p));
    const texts = [...picture.svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
    expect(texts).toEqual(
      expect.arrayContaining(["The week's 2 GRPO-family papers by family", 'GRPO', 'GSPO', '2', '1']),
    );
    const png = readPng(picture.png);
    expect(png.width).toBe(1000);
    expect(png.height).toBeLessThan(png.width); // a banner above the cards
    expect(png.inked).toBeGreaterThan(0.03);
  });

  it("says a sample preview is a sample of the latest papers, not the week's", async () => {
    const p = digestPicture([{ families: ['GRPO'] }, { families: ['GSPO'] }], '2026-11-23', true);
    expect(digestPictureAlt(p)).toMatch(/^Bar chart of a sample of the 2 latest GRPO-family papers by family/);
    const picture = await drawChart(digestWeekSpec(p));
    const texts = [...picture.svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
    expect(texts).toEqual(
      expect.arrayContaining([
        'A sample of the 2 latest GRPO-family papers by family',
        'Not the real digest · a paper named as two families counts in both',
      ]),
    );
    expect(texts.join(' ')).not.toMatch(/week/i);
  });

  it('draws a hostile family name as its text, escaped in the SVG', async () => {
    const evil = '</text><script> \' & "';
    const picture = await drawChart(digestWeekSpec(digestPicture([{ families: [evil] }], '2026-11-23')));
    expect(picture.svg).not.toContain('<script');
    const texts = [...picture.svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
      m[1]!
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    expect(texts).toContain(evil);
    expect(readPng(picture.png).inked).toBeGreaterThan(0.01);
  });
});
