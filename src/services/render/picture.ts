/**
 * The bot's pictures, drawn: a graph (DOT, src/core/pictures/family-tree.ts) or a chart (a Vega-Lite spec)
 * laid out as SVG, then rasterised to a PNG `PNG_WIDTH` pixels wide. The only module, with its
 * siblings, that loads the rendering packages (test/arch checks it).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Logger } from '../../core/log.ts';
import { PNG_WIDTH } from '../../core/pictures/theme.ts';
import { LIMITS, stripUnsafeChars, truncate, type ReplyFile } from '../../core/reply.ts';
import { chartSvg } from './chart.ts';
import { graphSvg } from './graph.ts';
import { rasterize, type Raster } from './raster.ts';

/** A drawn picture: the SVG it was rasterised from (what tests read as data) and the PNG. */
export interface Picture extends Raster {
  svg: string;
}

/**
 * The last few pictures by what they were drawn from: the same input draws the same picture, and
 * paging through /family show asks for the same tree again and again.
 */
const recent = new Map<string, Promise<Picture>>();
const RECENT_MAX = 16;

function remembered(key: string, draw: () => Promise<Picture>): Promise<Picture> {
  const hit = recent.get(key);
  if (hit) {
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  const drawn = draw();
  recent.set(key, drawn);
  drawn.catch(() => recent.delete(key));
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  return drawn;
}

export function drawGraph(dot: string): Promise<Picture> {
  return remembered(`graph\n${dot}`, async () => {
    const svg = await graphSvg(dot);
    return { svg, ...(await rasterize(svg, PNG_WIDTH)) };
  });
}

export function drawChart(spec: TopLevelSpec): Promise<Picture> {
  return remembered(`chart\n${JSON.stringify(spec)}`, async () => {
    const svg = await chartSvg(spec);
    return { svg, ...(await rasterize(svg, PNG_WIDTH)) };
  });
}

/** The picture as a reply's file. Alt text is plain text (no markdown), so it only loses unsafe characters. */
export function pictureFile(p: Picture, name: string, description: string): ReplyFile {
  return {
    name,
    data: p.png,
    width: p.width,
    height: p.height,
    description: truncate(stripUnsafeChars(description), LIMITS.fileDescription),
  };
}

/**
 * Draws, or logs why not and gives undefined: a picture is never worth losing the answer (or the
 * digest) it illustrates, whose text says the same.
 */
export async function tryDraw(
  log: Logger,
  what: string,
  draw: () => Promise<ReplyFile>,
): Promise<ReplyFile | undefined> {
  try {
    return await draw();
  } catch (err) {
    log.warn({ err, picture: what }, 'picture not drawn; the answer goes without it');
    return undefined;
  }
}
