/**
 * A Vega-Lite chart to SVG: Vega-Lite compiles the spec to Vega, Vega's headless renderer writes
 * the SVG (no canvas, no browser). Specs carry their data inline; the loader refuses every file and
 * URL, so a chart never reads the disk or the network. A problem Vega reports while drawing (it logs
 * and goes on with what it has) fails the chart instead of drawing a wrong one. Loaded on the first
 * chart only.
 */
import type * as VegaLite from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import type * as VegaModule from 'vega';
import type { Loader, ViewOptions } from 'vega';
import { textWidth, type TextItem } from './text-width.ts';

const refuse = (what: string) => () =>
  Promise.reject(new Error(`charts carry their data inline; refused to load ${what}`));
const NO_LOADING: Loader = {
  load: refuse('a URI'),
  sanitize: refuse('a URI'),
  http: refuse('a URL'),
  file: refuse('a file'),
};

type Vega = typeof VegaModule;
let engines: Promise<[Vega, typeof VegaLite]> | undefined;

/** Vega measures text with `textMetrics.width` (exported at run time, not in its types): the shipped font's widths. */
function measureWithShippedFont(vega: Vega): Vega {
  (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } }).textMetrics.width =
    textWidth;
  return vega;
}

type VegaLogger = NonNullable<ViewOptions['logger']>;

/**
 * Keeps Vega's errors and warnings (it would print them and draw on) so the chart fails with them:
 * a failed load is only a warning to Vega, and the bot's own charts draw without any.
 */
function problemsInto(problems: string[]): VegaLogger {
  const keep = (...args: unknown[]) => {
    problems.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
    return logger;
  };
  const logger: VegaLogger = {
    level: (_?: number) => logger,
    error: keep,
    warn: keep,
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

export async function chartSvg(spec: TopLevelSpec): Promise<string> {
  engines ??= Promise.all([import('vega').then(measureWithShippedFont), import('vega-lite')]);
  const [vega, vl] = await engines;
  const problems: string[] = [];
  const view = new vega.View(vega.parse(vl.compile(spec).spec), {
    renderer: 'none',
    loader: NO_LOADING,
    logger: problemsInto(problems),
  });
  try {
    const svg = await view.toSVG();
    if (problems.length) throw new Error(`Vega could not draw the chart: ${problems.join('; ')}`);
    return svg;
  } finally {
    view.finalize();
  }
}
