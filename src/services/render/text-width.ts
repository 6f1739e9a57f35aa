/**
 * How wide a line of text is in the shipped font, for Vega's layout. Without a canvas, Vega guesses
 * 0.8 em per character, which makes every chart far wider than its marks (titles and labels seem
 * to overflow); these are the font's own advance widths (font-widths.json, read from the TTF files
 * with fontTools). A character outside the table counts as a wide letter.
 */
import WIDTHS from './font-widths.json' with { type: 'json' };

const FALLBACK_EM = 0.75;

/** Vega's text mark (or axis label) fields this reads. */
export interface TextItem {
  fontSize?: number | string;
  fontWeight?: number | string;
}

export function textWidth(item: TextItem, text: unknown): number {
  const line = text == null ? '' : String(text).trim();
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  const weight = item.fontWeight;
  const table: Record<string, number> = weight === 'bold' || Number(weight) >= 600 ? WIDTHS.bold : WIDTHS.regular;
  let em = 0;
  for (const ch of line) em += table[ch] ?? FALLBACK_EM;
  return em * size;
}
