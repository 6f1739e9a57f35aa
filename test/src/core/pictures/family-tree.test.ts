import { describe, expect, it } from 'vitest';
import { BACKGROUND_YEARS, FAMILIES } from '../../../../src/core/papers/families.ts';
import { COLORS, PNG_WIDTH } from '../../../../src/core/pictures/theme.ts';
import { childrenOf, familyTreeDot, treeEdges, treeFamilies } from '../../../../src/core/pictures/family-tree.ts';
import { drawGraph } from '../../../../src/services/render/picture.ts';
import { readPng } from '../../../helpers/png.ts';

const counts = new Map([
  ['GRPO', { total: 76, thisMonth: 4 }],
  ['GSPO', { total: 51, thisMonth: 0 }],
  ['DAPO', { total: 5, thisMonth: 1 }],
]);
const families = treeFamilies(FAMILIES, counts);

/** Graphviz writes each node and edge as a `<g class="node|edge">` whose `<title>` names it, and each label line as a `<text>`. */
const groups = (svg: string, kind: 'node' | 'edge') =>
  [...svg.matchAll(new RegExp(`<g id="\\w+" class="${kind}">\\s*<title>([^<]*)</title>([\\s\\S]*?)</g>`, 'g'))].map(
    (m) => ({
      // An edge's title names its ports ("GRPO:e->GSPO:w"): the relation is the names.
      title: unescape(m[1]!).replace(/:[ew](?=->|$)/g, ''),
      body: m[2]!,
      texts: [...m[2]!.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => unescape(t[1]!)),
    }),
  );
const unescape = (s: string) =>
  s
    .replace(/&#45;/g, '-')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&#160;/g, ' ');

/** The points of an SVG path of cubic Béziers ("M x,y C x1,y1 x2,y2 x,y ..."), sampled along each curve. */
function pathPoints(d: string): [number, number][] {
  const n = [...d.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const p = Array.from({ length: n.length / 2 }, (_, i): [number, number] => [n[2 * i]!, n[2 * i + 1]!]);
  const points: [number, number][] = [p[0]!];
  for (let i = 1; i + 2 < p.length; i += 3)
    for (let k = 1; k <= 20; k++) {
      const t = k / 20;
      const w = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3];
      const [a, b, c, e] = [p[i - 1]!, p[i]!, p[i + 1]!, p[i + 2]!];
      points.push([0, 1].map((j) => w[0]! * a[j]! + w[1]! * b[j]! + w[2]! * c[j]! + w[3]! * e[j]!) as [number, number]);
    }
  return points;
}

/** Where a path first crosses the vertical line at `x`. */
function yAt(points: readonly [number, number][], x: number): number {
  for (let i = 1; i < points.length; i++) {
    const [[x0, y0], [x1, y1]] = [points[i - 1]!, points[i]!];
    if ((x0 - x) * (x1 - x) <= 0 && x0 !== x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return NaN;
}

describe('the family tree picture', () => {
  it("takes each family's year from its defining paper and its counts from the corpus", () => {
    expect(families.find((f) => f.name === 'GSPO')).toEqual({
      name: 'GSPO',
      year: 2025,
      total: 51,
      thisMonth: 0,
      buildsOn: ['GRPO'],
    });
    expect(families.find((f) => f.name === 'GMPO')).toMatchObject({ total: 0, thisMonth: 0 });
    expect(childrenOf(families, 'DAPO')).toEqual(['VAPO']);
  });

  it('draws every family with its count and one arrow per "builds on" relation, the asked family and its children highlighted', async () => {
    const picture = await drawGraph(
      familyTreeDot({ families, background: BACKGROUND_YEARS, highlight: 'DAPO', month: 'November 2026' }),
    );
    const nodes = groups(picture.svg, 'node');
    const edges = groups(picture.svg, 'edge');

    for (const f of families) {
      const node = nodes.find((n) => n.title === f.name);
      expect(node, f.name).toBeDefined();
      expect(node!.texts).toContain(f.name);
      expect(node!.texts).toContain(`${f.year} · ${f.total} paper${f.total === 1 ? '' : 's'}`);
    }
    expect(nodes.find((n) => n.title === 'GRPO')!.texts).toContain('+4 new in Nov');
    expect(nodes.find((n) => n.title === 'PPO')!.texts).toEqual(['PPO', '2017']);
    expect(nodes).toHaveLength(FAMILIES.length + Object.keys(BACKGROUND_YEARS).length);

    const relations = FAMILIES.flatMap((f) => f.buildsOn.map((p) => `${p}->${f.name}`));
    expect(edges.map((e) => e.title).sort()).toEqual(relations.sort());
    expect(treeEdges(families)).toHaveLength(relations.length);

    const fill = (name: string) => /<path fill="([^"]+)"/.exec(nodes.find((n) => n.title === name)!.body)?.[1];
    expect(fill('DAPO')).toBe(COLORS.accent);
    expect(fill('VAPO')).toBe(COLORS.accentSoft);
    expect(fill('GSPO')).toBe(COLORS.box);
    expect(edges.find((e) => e.title === 'DAPO->VAPO')!.body).toContain(`stroke="${COLORS.accent}"`);

    const png = readPng(picture.png);
    expect(png).toMatchObject({ width: PNG_WIDTH });
    expect([picture.width, picture.height]).toEqual([png.width, png.height]);
    // About as tall as wide (a phone shows it large), with ink on it: boxes, text, arrows in several colours.
    expect(png.height / png.width).toBeGreaterThan(0.8);
    expect(png.height / png.width).toBeLessThan(1.5);
    expect(png.inked).toBeGreaterThan(0.05);
    expect(png.colours).toBeGreaterThan(20);
  });

  it("fans GRPO's arrows out to its column: they never cross, each keeps the order of the box it reaches", async () => {
    const picture = await drawGraph(familyTreeDot({ families, background: BACKGROUND_YEARS, month: 'November 2026' }));
    const fromGrpo = groups(picture.svg, 'edge')
      .filter((e) => e.title.startsWith('GRPO->'))
      .map((e) => pathPoints(/ d="([^"]+)"/.exec(e.body)![1]!));
    const column = Math.min(...fromGrpo.map((p) => p.at(-1)![0]));
    // The arrows to the next column (the far ones go around it), top to bottom by the box they reach.
    const fan = fromGrpo.filter((p) => p.at(-1)![0] < column + 10).sort((a, b) => a.at(-1)![1] - b.at(-1)![1]);
    expect(fan.length).toBeGreaterThanOrEqual(12);
    const start = Math.max(...fan.map((p) => p[0]![0]));
    for (let x = start + 2; x < column - 2; x += 2) {
      const ys = fan.map((p) => yAt(p, x));
      for (let i = 1; i < ys.length; i++)
        expect(ys[i]!, `arrows ${i - 1} and ${i} at x=${x}`).toBeGreaterThan(ys[i - 1]! - 0.5);
    }
  });

  it('keys "+new in <month>" only when some box is new', () => {
    const input = { background: BACKGROUND_YEARS, month: 'November 2026' };
    const none = treeFamilies(FAMILIES, new Map([['GRPO', { total: 59, thisMonth: 0 }]]));
    expect(familyTreeDot({ ...input, families: none })).not.toContain('new in');
    const dot = familyTreeDot({ ...input, families });
    expect(dot).toContain('+new in November 2026');
    expect(dot).toContain('+4 new in Nov');
  });

  it('keeps any name a valid DOT identifier and label', () => {
    const dot = familyTreeDot({
      families: [{ name: 'A "quoted" <b>&', total: 1, thisMonth: 0, buildsOn: ['X\\Y'] }],
      background: {},
      month: 'May 2026',
    });
    expect(dot).toContain('"A \\"quoted\\" <b>&"');
    expect(dot).toContain('<B>A &quot;quoted&quot; &lt;b&gt;&amp;</B>');
    expect(dot).toContain('"X\\\\Y" -> "A \\"quoted\\" <b>&"');
  });

  it('draws a hostile name as its text: one box and one arrow each, nothing injected into the graph or the SVG', async () => {
    const evil = 'A"] ; X -> Y; <B>&amp;</B> ]]></text><script>alert(1)</script>\\';
    const picture = await drawGraph(
      familyTreeDot({
        families: [{ name: evil, total: 2, thisMonth: 1, buildsOn: ['PPO'] }],
        background: { PPO: 2017 },
        month: 'May 2026',
      }),
    );
    const nodes = groups(picture.svg, 'node');
    // Graphviz writes ids with its own escapes; what a reader sees is the label, which is the name as typed.
    expect(nodes).toHaveLength(2);
    expect(nodes.find((n) => n.title !== 'PPO')!.texts).toEqual([evil, '2 papers', '+1 new in May']);
    expect(groups(picture.svg, 'edge')).toHaveLength(1);
    expect(picture.svg).not.toContain('<script');
    expect(readPng(picture.png).inked).toBeGreaterThan(0.01);
  });
});
