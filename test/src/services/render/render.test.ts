import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { chartSvg } from '../../../../src/services/render/chart.ts';
import { graphSvg } from '../../../../src/services/render/graph.ts';
import { rasterize } from '../../../../src/services/render/raster.ts';
import { tryDraw } from '../../../../src/services/render/picture.ts';
import { textWidth } from '../../../../src/services/render/text-width.ts';
import { readPng } from '../../../helpers/png.ts';

describe('the renderer', () => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><text x="10" y="40" font-size="24" font-family="Some Font Nobody Has">GSPO 51</text></svg>';

  it('draws text with the shipped font whatever the SVG asks for, the same bytes every time', async () => {
    const [a, b] = [await rasterize(svg, 400), await rasterize(svg, 400)];
    expect(Buffer.from(a.png).equals(Buffer.from(b.png))).toBe(true);
    const png = readPng(a.png);
    expect(png).toMatchObject({ width: 400, height: 120 });
    expect(png.inked).toBeGreaterThan(0.02);
  });

  it('measures text in the shipped font for chart layout (bold is wider)', () => {
    expect(textWidth({ fontSize: 10 }, 'a')).toBeCloseTo(6.128, 2);
    expect(textWidth({ fontSize: 10, fontWeight: 'bold' }, 'GRPO')).toBeGreaterThan(
      textWidth({ fontSize: 10 }, 'GRPO'),
    );
    expect(textWidth({ fontSize: 10 }, '  GRPO  ')).toBe(textWidth({ fontSize: 10 }, 'GRPO'));
  });

  it("never loads a chart's data from a file or the network", async () => {
    const spec = {
      data: { url: 'http://127.0.0.1:9/data.json' },
      mark: 'bar' as const,
      encoding: { x: { field: 'a', type: 'nominal' as const } },
    };
    await expect(chartSvg(spec)).rejects.toThrow(/refused to load/);
  });

  it('says why a graph cannot be laid out, and a failed picture is logged and left out', async () => {
    await expect(graphSvg('digraph { a -> ')).rejects.toThrow(/Graphviz could not lay out the graph/);
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (s: string) => void warnings.push(s) });
    expect(await tryDraw(log, 'test picture', () => Promise.reject(new Error('no renderer here')))).toBeUndefined();
    expect(warnings.join('')).toMatch(/"picture":"test picture".*picture not drawn/);
  });
});
