import { inflateSync } from 'node:zlib';

/**
 * Reads a PNG as the tests check pictures: its size from IHDR, and its pixels (8-bit RGB or RGBA,
 * the scanline filters undone) to tell a picture from a blank page. Enough PNG for what resvg writes.
 */
export interface PngFacts {
  width: number;
  height: number;
  /** Share of pixels that are not (near) white. */
  inked: number;
  /** Distinct colours, up to 1,000. */
  colours: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function readPng(data: Uint8Array): PngFacts {
  const png = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      channels = ({ 2: 3, 6: 4 } as Record<number, number>)[body[9]!] ?? 0;
      if (!channels) throw new Error(`colour type ${body[9]} not read here`);
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter] ?? 0;
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  let inked = 0;
  const colours = new Set<number>();
  for (let i = 0; i < pixels.length; i += channels) {
    const [r, g, bl] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    if (r < 240 || g < 240 || bl < 240) inked++;
    if (colours.size < 1000) colours.add((r << 16) | (g << 8) | bl);
  }
  return { width, height, inked: inked / (width * height), colours: colours.size };
}
