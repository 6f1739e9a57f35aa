/**
 * SVG to PNG with resvg (a Rust SVG renderer; prebuilt binaries come with the npm package). Only the
 * shipped fonts are loaded, and the picture is scaled to a fixed width, so the same SVG gives the
 * same PNG everywhere. Renders on libuv's thread pool: the event loop keeps answering meanwhile.
 */
import { fontFiles } from './fonts.ts';
import { FONT } from '../../core/pictures/theme.ts';

export interface Raster {
  png: Uint8Array;
  width: number;
  height: number;
}

export async function rasterize(svg: string, width: number): Promise<Raster> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false, fontFiles: fontFiles(), defaultFontFamily: FONT, sansSerifFamily: FONT },
    fitTo: { mode: 'width', value: width },
    background: 'white',
    logLevel: 'off',
  });
  return { png: new Uint8Array(image.asPng()), width: image.width, height: image.height };
}
