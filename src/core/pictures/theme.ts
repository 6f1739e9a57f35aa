/**
 * How the bot's pictures look, shared by the family tree and the charts. Pure data.
 *
 * Sizes are chosen for Discord's preview on a phone (about 400-550 px wide): every picture is
 * drawn at `PNG_WIDTH` pixels, roughly twice that, and its layout keeps the smallest text at about
 * 12 px once shown at 480 px. The font is the one shipped with the renderer (src/services/render/fonts),
 * never a system font, so a picture is the same on every machine.
 */
import type { TopLevelSpec } from 'vega-lite';

/** The font the pictures are laid out and drawn with: the layout engines know its metrics, the rasteriser loads the shipped file. */
export const FONT = 'DejaVu Sans';

/** Every PNG is this many pixels wide; its height follows the picture. */
export const PNG_WIDTH = 1000;

export const COLORS = {
  ink: '#1d2433',
  muted: '#5b6475',
  line: '#8a94a6',
  grid: '#e3e7ee',
  box: '#f4f6fa',
  accent: '#2f6fde',
  accentInk: '#ffffff',
  accentSoft: '#dbe7fb',
  fresh: '#1a7f37',
  upvotes: '#c2410c',
  background: '#ffffff',
} as const;

type ChartConfig = NonNullable<TopLevelSpec['config']>;

/**
 * What every chart starts from: the schema, a white background, the shipped font and the house
 * colours for axes and titles; each chart adds its sizes (`axis`, `title`, `concat`).
 */
export function chartBase(own: Pick<ChartConfig, 'axis' | 'title' | 'concat'>) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: COLORS.background,
    padding: 12,
    config: {
      font: FONT,
      view: { stroke: null },
      ...own,
      axis: {
        labelColor: COLORS.muted,
        domainColor: COLORS.line,
        tickColor: COLORS.line,
        gridColor: COLORS.grid,
        ...own.axis,
      },
      title: {
        anchor: 'start' as const,
        color: COLORS.ink,
        subtitleFontSize: 13,
        subtitleColor: COLORS.muted,
        ...own.title,
      },
    },
  };
}
