/**
 * DOT text to SVG with Graphviz's `dot` layout, compiled to WebAssembly (@viz-js/viz): no binary to
 * install, nothing fetched. Graphviz knows DejaVu Sans's metrics, so boxes fit the shipped font.
 * The module is loaded, and its WebAssembly compiled, on the first graph only.
 */
import type { Viz } from '@viz-js/viz';

let viz: Promise<Viz> | undefined;

export async function graphSvg(dot: string): Promise<string> {
  viz ??= import('@viz-js/viz').then((m) => m.instance());
  const result = (await viz).render(dot, { format: 'svg', engine: 'dot' });
  if (result.status !== 'success')
    throw new Error(`Graphviz could not lay out the graph: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.output;
}
