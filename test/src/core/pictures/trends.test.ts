import { describe, expect, it } from 'vitest';
import type { TrendPaperRow } from '../../../../src/core/pictures/trends.ts';
import { FAMILY_NAMES } from '../../../../src/core/papers/families.ts';
import { buildTrends, trendRange, trendReach, weekStart } from '../../../../src/core/pictures/trends.ts';
import { upvoteLabelHalf, upvoteLabels, trendsChartSpec } from '../../../../src/core/pictures/trends-chart.ts';
import { PNG_WIDTH } from '../../../../src/core/pictures/theme.ts';
import { drawChart } from '../../../../src/services/render/picture.ts';
import { trendsReply } from '../../../../src/core/views/trends.ts';
import { textWidth } from '../../../../src/services/render/text-width.ts';
import { readPng } from '../../../helpers/png.ts';

const row = (day: string | null, families: string[], extra: Partial<TrendPaperRow> = {}): TrendPaperRow => ({
  day,
  grpoFamily: true,
  families,
  topics: [],
  hfUpvotes: null,
  title: `A paper of ${day}`,
  arxivId: null,
  ...extra,
});

/** The parts of the overall chart's spec the label test reads. */
interface ChartPart {
  width: number;
  data: { values: ({ start: string; count: number; upvotes: string } & Record<string, number>)[] };
  encoding: { y: { field: string } };
  layer: { mark: { type: string; fontSize: number }; encoding: { y?: { field: string } } }[];
}

describe('/trends numbers', () => {
  const now = new Date('2026-11-25T10:00:00Z'); // a Wednesday
  const range = trendRange(now, 4);

  it('counts weeks from Monday (UTC), ending with the current one', () => {
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(weekStart('2026-11-22')).toBe('2026-11-16');
    expect(range).toEqual({
      starts: ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'],
      from: '2026-11-02',
      to: '2026-11-26',
    });
  });

  const rows = [
    row('2026-11-02', ['GRPO', 'GSPO'], { hfUpvotes: 12, title: 'Top of the first week', arxivId: '2611.00001' }),
    row('2026-11-08', ['GRPO'], {
      hfUpvotes: 30,
      title: 'The most upvoted',
      arxivId: '2611.00002',
      topics: ['multimodal'],
    }),
    row('2026-11-17', ['DAPO'], { topics: ['multimodal'] }),
    row('2026-11-24', ['GSPO']),
    row('2026-11-25', [], { grpoFamily: false, families: ['GSPO'] }), // cites GSPO, not itself GRPO-family
    row(null, ['GRPO']), // dated by month only
    row('2026-10-30', ['GRPO']), // before the range
  ];

  it("counts the GRPO family per week with the week's most upvoted paper, and its largest families as panels", () => {
    const t = buildTrends(rows, range, { families: FAMILY_NAMES, panels: 3 });
    expect(t.subject).toBe('GRPO family');
    expect(t.overall.weeks.map((w) => w.count)).toEqual([2, 0, 1, 1]);
    expect(t.overall.total).toBe(4);
    expect(t.overall.weeks[0]!.top).toEqual({ title: 'The most upvoted', arxivId: '2611.00002', hfUpvotes: 30 });
    expect(t.overall.weeks[2]!.top).toBeUndefined();
    expect(t.panels.map((p) => [p.name, p.total])).toEqual([
      ['GRPO', 2],
      ['GSPO', 2],
      ['DAPO', 1],
    ]);
    expect(t.monthOnly).toBe(2); // the month-only paper, and the one before the range
  });

  it('narrows to a family (with the families building on it as panels) and to a topic', () => {
    const gspo = buildTrends(rows, range, {
      families: FAMILY_NAMES,
      panels: 3,
      family: { name: 'GSPO', children: [] },
    });
    expect(gspo.subject).toBe('GSPO');
    expect(gspo.overall.weeks.map((w) => w.count)).toEqual([1, 0, 0, 2]); // the citing paper counts, as in /family list
    const multimodal = buildTrends(rows, range, {
      families: FAMILY_NAMES,
      panels: 3,
      topic: { slug: 'multimodal', label: 'Multimodal' },
    });
    expect(multimodal.subject).toBe('GRPO family · Multimodal');
    expect(multimodal.overall.weeks.map((w) => w.count)).toEqual([1, 0, 1, 0]);
  });

  it('says how many weeks back hold every dated paper, from the oldest one', () => {
    const long = trendRange(now, 104);
    const t = buildTrends(rows, long, { families: FAMILY_NAMES, panels: 3 });
    // The oldest dated paper is from 2026-10-30, in the week of 2026-10-26: 5 weeks to the current one.
    expect(trendReach(t)).toEqual({ weeks: 5, papers: 5, from: '2026-10-26' });
    expect(trendReach(buildTrends([], long, { families: FAMILY_NAMES, panels: 3 }))).toBeUndefined();
  });

  it('writes upvotes only where the label has room, and says so in words', () => {
    const many = trendRange(now, 52);
    const crowded = buildTrends(
      many.starts.map((d, i) => row(d, ['GRPO'], { hfUpvotes: 100 + i, arxivId: `2611.${10000 + i}` })),
      many,
      { families: FAMILY_NAMES, panels: 3 },
    );
    const labelled = [...upvoteLabels(crowded.overall).keys()].map((d) => many.starts.indexOf(d)).sort((a, b) => a - b);
    expect(labelled.length).toBeGreaterThan(3);
    expect(labelled.length).toBeLessThan(20);
    expect(labelled.at(-1)).toBe(51); // the most upvoted week first
    for (let i = 1; i < labelled.length; i++) expect(labelled[i]! - labelled[i - 1]!).toBeGreaterThan(2);
    const text = trendsReply({ trends: crowded }).embeds![0]!;
    expect(text.description).toContain('▲ 151');
    expect(text.description!.length).toBeLessThanOrEqual(4096);
  });

  it("draws the chart: the subject's bars with upvotes, the family panels, week labels in UTC", async () => {
    const t = buildTrends(rows, range, { families: FAMILY_NAMES, panels: 3 });
    const picture = await drawChart(trendsChartSpec(t));
    const texts = [...picture.svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
    expect(texts).toEqual(
      expect.arrayContaining([
        'GRPO family: papers per week',
        'GRPO family · 4 papers',
        'GRPO · 2',
        'GSPO · 2',
        'DAPO · 1',
        '▲ 30',
        'Nov 2',
        'Nov 23',
      ]),
    );
    // Vega labels each bar with its data: the subject's bars are the four weeks' counts.
    const subjectBars = /class="mark-rect role-mark concat_0_layer_0_marks"[^>]*>(.*?)<\/g>/.exec(picture.svg)![1]!;
    expect(
      [...subjectBars.matchAll(/aria-label="start: ([\d-]+); count: (\d+)"/g)].map((m) => `${m[1]} ${m[2]}`),
    ).toEqual(['2026-11-02 2', '2026-11-09 0', '2026-11-16 1', '2026-11-23 1']);
    const png = readPng(picture.png);
    expect(png.width).toBe(PNG_WIDTH);
    expect(png.inked).toBeGreaterThan(0.03);
  });

  it('writes each upvote label above every bar it spans, never across a taller neighbour', async () => {
    // As in the seed corpus over 104 weeks: "▲ 20" on a week of 1 between weeks of 2 (issue 27).
    const long = trendRange(now, 104);
    const counts = new Map([
      [60, 2],
      [61, 1],
      [62, 2],
      [90, 1],
      [70, 4],
      [71, 3],
    ]);
    const upvotes = new Map([
      [61, 20],
      [71, 6],
      [90, 2],
    ]);
    const t = buildTrends(
      [...counts].flatMap(([i, n]) =>
        Array.from({ length: n }, (_, k) =>
          row(long.starts[i]!, ['GRPO'], { hfUpvotes: k ? null : (upvotes.get(i) ?? null) }),
        ),
      ),
      long,
      { families: FAMILY_NAMES, panels: 3 },
    );
    const spec = trendsChartSpec(t) as unknown as { vconcat: ChartPart[] };
    const overall = spec.vconcat[0]!;
    const values = overall.data.values;
    const text = overall.layer.find((l) => l.mark.type === 'text')!;
    const yField = (text.encoding.y ?? overall.encoding.y).field;
    const step = overall.width / values.length;
    const labelled = values.filter((v) => v.upvotes);
    expect(labelled.map((v) => v.upvotes)).toEqual(['▲ 20', '▲ 6', '▲ 2']);
    for (const v of labelled) {
      const i = values.indexOf(v);
      const half = textWidth({ fontSize: text.mark.fontSize, fontWeight: 'bold' }, v.upvotes) / 2;
      const under = values.filter((_, j) => Math.abs(j - i) * step < half + step / 2);
      expect(v[yField], `${v.upvotes} sits at ${yField}`).toBe(Math.max(...under.map((w) => w.count)));
    }

    // Drawn: no label's box touches a bar.
    const svg = (await drawChart(trendsChartSpec(t))).svg;
    const bars = [...svg.matchAll(/aria-roledescription="bar" d="M([\d.]+),([\d.]+)h([\d.]+)v([\d.]+)/g)].map((m) =>
      m.slice(1, 5).map(Number),
    );
    const labels = [...svg.matchAll(/transform="translate\(([\d.-]+),([\d.-]+)\)"[^>]*>(▲ \d+)</g)];
    expect(labels).toHaveLength(3);
    for (const [, x, y, label] of labels) {
      const half = textWidth({ fontSize: 12, fontWeight: 'bold' }, label) / 2;
      const [left, right, top, bottom] = [Number(x) - half, Number(x) + half, Number(y) - 12, Number(y) + 3];
      for (const [bx, by, bw, bh] of bars)
        expect(bx! + bw! <= left || bx! >= right || by! + bh! <= top || by! >= bottom, `${label} over a bar`).toBe(
          true,
        );
    }
  });

  it('estimates an upvote label no narrower than the font draws it', () => {
    for (const n of [1, 7, 20, 99, 150, 1234, 88888])
      expect(2 * upvoteLabelHalf(n)).toBeGreaterThanOrEqual(textWidth({ fontSize: 12, fontWeight: 'bold' }, `▲ ${n}`));
  });

  it("shows a hostile top paper's title as text: no masked link of its own, no ping, no control characters", () => {
    const hostile = 'Evil [click](http://evil.example) @everyone <@&123> **bold**\u202e\u0007\nsecond line';
    const t = buildTrends(
      [row('2026-11-03', ['GRPO'], { hfUpvotes: 9, title: hostile, arxivId: '2611.00009' })],
      range,
      { families: FAMILY_NAMES, panels: 3 },
    );
    const text = trendsReply({ trends: t }).embeds![0]!.description!;
    expect(text).not.toContain('](http://evil.example)');
    expect(text).not.toContain('@everyone');
    expect(text).not.toContain('<@&123>');
    expect([...text].some((c) => c === '\u202e' || c === '\u0007')).toBe(false);
    expect(text).toContain('\\*\\*bold\\*\\*');
    // The one link is the paper's own, its label on one line.
    expect([...text.matchAll(/\]\((https?:[^)]+)\)/g)].map((m) => m[1])).toEqual(['https://arxiv.org/abs/2611.00009']);
    expect(text.split('\n').filter((l) => l.includes('Evil'))).toHaveLength(1);
  });
});
