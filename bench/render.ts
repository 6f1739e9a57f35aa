/**
 * Render time of the bot's pictures: the family tree (Graphviz layout + PNG), the /trends chart at
 * 12 and 52 weeks and the weekly digest header (Vega-Lite + Vega SVG + PNG). The first picture of
 * each engine also pays for loading it (module import, WebAssembly compile): reported apart as
 * "first". Then `runs` pictures each, every one from a different input (another family highlighted,
 * other counts), calling the layout and the rasteriser directly so the renderer's cache of recent
 * pictures never answers. Goal: a picture in under 300 ms.
 *
 *   npx tsx bench/render.ts            # the table
 *   npx tsx bench/render.ts --json
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BACKGROUND_YEARS, FAMILIES, FAMILY_NAMES } from '../src/core/papers/families.ts';
import { digestPicture, digestWeekSpec } from '../src/core/pictures/digest-week.ts';
import { familyTreeDot, treeFamilies } from '../src/core/pictures/family-tree.ts';
import { PNG_WIDTH } from '../src/core/pictures/theme.ts';
import { buildTrends, trendRange } from '../src/core/pictures/trends.ts';
import { trendsChartSpec } from '../src/core/pictures/trends-chart.ts';
import { chartSvg } from '../src/services/render/chart.ts';
import { graphSvg } from '../src/services/render/graph.ts';
import { rasterize } from '../src/services/render/raster.ts';
import type { TrendPaperRow } from '../src/core/pictures/trends.ts';
import { rng } from './corpus.ts';
import { median, round, summarize, table } from './stats.ts';

export const RENDER_GOAL_MS = 300;

export interface RenderKindResult {
  name: string;
  /** The first picture of the kind in this process, engine loading included. */
  firstMs: number;
  runs: number;
  /** Layout (Graphviz or Vega) and rasterising, medians of the runs. */
  layoutMs: number;
  rasterMs: number;
  total: { p50: number; p95: number; max: number };
  width: number;
  height: number;
  pngKb: number;
}

export interface RenderResult {
  runs: number;
  kinds: RenderKindResult[];
}

/** The i-th tree: counts drawn at random, the families highlighted in turn. */
function treeDot(i: number, r: () => number): string {
  const counts = new Map(
    FAMILIES.map((f) => [f.name, { total: Math.floor(r() * 120), thisMonth: Math.floor(r() * 4) }]),
  );
  return familyTreeDot({
    families: treeFamilies(FAMILIES, counts),
    background: BACKGROUND_YEARS,
    highlight: FAMILIES[i % FAMILIES.length]!.name,
    month: 'November 2026',
  });
}

/** A busy field: 6 to 60 papers a week over `weeks`, a third with HF upvotes. */
function trendsSpec(weeks: number, r: () => number) {
  const range = trendRange(new Date('2026-11-23T12:00:00Z'), weeks);
  const rows: TrendPaperRow[] = range.starts.flatMap((start, w) =>
    Array.from({ length: 6 + Math.floor(r() * 55) }, (_, k) => ({
      day: start,
      grpoFamily: true,
      families: FAMILY_NAMES.filter(() => r() < 0.15),
      topics: [],
      hfUpvotes: r() < 0.33 ? Math.floor(r() * 200) : null,
      title: `Paper ${w}.${k}`,
      arxivId: null,
    })),
  );
  return trendsChartSpec(buildTrends(rows, range, { families: FAMILY_NAMES, panels: 3 }));
}

function digestSpec(r: () => number) {
  const papers = Array.from({ length: 10 + Math.floor(r() * 60) }, () => ({
    families: FAMILY_NAMES.filter(() => r() < 0.12),
  }));
  return digestWeekSpec(digestPicture(papers, '2026-11-23'));
}

async function timeKind(name: string, layout: (i: number) => Promise<string>, runs: number): Promise<RenderKindResult> {
  const t0 = performance.now();
  const first = await rasterize(await layout(0), PNG_WIDTH);
  const firstMs = performance.now() - t0;
  const layouts: number[] = [];
  const rasters: number[] = [];
  const totals: number[] = [];
  for (let i = 1; i <= runs; i++) {
    const a = performance.now();
    const svg = await layout(i);
    const b = performance.now();
    await rasterize(svg, PNG_WIDTH);
    const c = performance.now();
    layouts.push(b - a);
    rasters.push(c - b);
    totals.push(c - a);
  }
  return {
    name,
    firstMs: round(firstMs),
    runs,
    layoutMs: median(layouts),
    rasterMs: median(rasters),
    total: summarize(totals),
    width: first.width,
    height: first.height,
    pngKb: round(first.png.length / 1024),
  };
}

export async function benchRender(opts: {
  runs: number;
  seed: number;
  log?: (s: string) => void;
}): Promise<RenderResult> {
  const r = rng(opts.seed);
  const kinds: RenderKindResult[] = [];
  const log = opts.log ?? (() => {});
  log(`render: ${opts.runs} pictures of each kind`);
  kinds.push(await timeKind('family tree (Graphviz)', (i) => graphSvg(treeDot(i, r)), opts.runs));
  kinds.push(await timeKind('/trends, 12 weeks (Vega-Lite)', () => chartSvg(trendsSpec(12, r)), opts.runs));
  kinds.push(await timeKind('/trends, 52 weeks (Vega-Lite)', () => chartSvg(trendsSpec(52, r)), opts.runs));
  kinds.push(await timeKind('weekly digest header (Vega-Lite)', () => chartSvg(digestSpec(r)), opts.runs));
  return { runs: opts.runs, kinds };
}

export function renderReport(d: RenderResult): string {
  const worst = Math.max(...d.kinds.map((k) => k.total.p95));
  return [
    `Pictures: layout + PNG (${PNG_WIDTH} px wide), ${d.runs} different inputs each after the first (which also loads the engine), ms:`,
    table(
      ['picture', 'first', 'layout p50', 'PNG p50', 'total p50', 'total p95', 'max', 'size', 'PNG KB'],
      d.kinds.map((k) => [
        k.name,
        k.firstMs,
        k.layoutMs,
        k.rasterMs,
        k.total.p50,
        k.total.p95,
        k.total.max,
        `${k.width}×${k.height}`,
        k.pngKb,
      ]),
    ),
    `goal: a picture in under ${RENDER_GOAL_MS} ms -> ${worst < RENDER_GOAL_MS ? 'met' : 'missed'} (worst p95 ${worst} ms)`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchRender({ runs: 20, seed: 1, log: (s) => process.stderr.write(`${s}\n`) });
  process.stdout.write(
    process.argv.includes('--json') ? `${JSON.stringify(result, null, 2)}\n` : `${renderReport(result)}\n`,
  );
}
