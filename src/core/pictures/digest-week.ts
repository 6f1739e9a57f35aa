/**
 * A weekly digest's header picture: the week's papers by family at a glance, as horizontal bars.
 * `digestPicture` reduces the digest's papers to counts (plain JSON, stored with the outbox row);
 * `digestWeekSpec` turns them into a Vega-Lite spec, drawn when the message is sent. Pure.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { DigestPaper } from '../digest/types.ts';
import { chartBase, COLORS } from './theme.ts';

/** At most this many bars: the largest families, then "other families" and "no named family" when there are any. */
const MAX_BARS = 8;
const UNNAMED = 'no named family';
const OTHER = 'other families';

export interface DigestPicture {
  /** The digest's local date. */
  date: string;
  /** Papers in the digest's window (before the channel's cap). */
  total: number;
  /** Papers per family, largest first; a paper counts in each family it is named as. */
  families: { name: string; count: number }[];
  /** Drawn for a preview from the latest papers because nothing is new: titled as a sample. */
  sample?: boolean;
}

export function digestPicture(
  papers: readonly Pick<DigestPaper, 'families'>[],
  date: string,
  sample = false,
): DigestPicture {
  const counts = new Map<string, number>();
  let unnamed = 0;
  for (const p of papers) {
    if (p.families.length === 0) unnamed++;
    for (const name of new Set(p.families)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const named = [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const room = MAX_BARS - (unnamed ? 1 : 0);
  const shown = named.length > room ? named.slice(0, room - 1) : named;
  const rest = named.slice(shown.length).reduce((n, f) => n + f.count, 0);
  return {
    date,
    total: papers.length,
    ...(sample && { sample }),
    families: [
      ...shown,
      ...(rest ? [{ name: OTHER, count: rest }] : []),
      ...(unnamed ? [{ name: UNNAMED, count: unnamed }] : []),
    ],
  };
}

/** The picture's file name and what it shows, in words (its alt text). */
export function digestPictureName(p: DigestPicture): string {
  return `digest-week-${p.date.replace(/[^0-9-]/g, '')}.png`;
}

export function digestPictureAlt(p: DigestPicture): string {
  return `Bar chart of ${what(p)} by family: ${p.families.map((f) => `${f.name} ${f.count}`).join(', ')}.`;
}

/** "the week's 7 GRPO-family papers", or for a sample preview "a sample of the 10 latest GRPO-family papers". */
function what(p: DigestPicture): string {
  const papers = `GRPO-family paper${p.total === 1 ? '' : 's'}`;
  return p.sample ? `a sample of the ${p.total} latest ${papers}` : `the week's ${p.total} ${papers}`;
}

export function digestWeekSpec(p: DigestPicture): TopLevelSpec {
  return {
    ...chartBase({ axis: { labelFontSize: 14, labelColor: COLORS.ink }, title: { fontSize: 18, offset: 10 } }),
    title: {
      text: `${what(p).replace(/^./, (c) => c.toUpperCase())} by family`,
      subtitle: `${p.sample ? 'Not the real digest' : `Week to ${p.date}`} · a paper named as two families counts in both`,
    },
    width: 400,
    height: { step: 28 },
    data: { values: p.families },
    encoding: {
      y: {
        field: 'name',
        type: 'nominal',
        sort: null,
        title: null,
        axis: { ticks: false, domain: false, labelPadding: 8 },
      },
      // Every bar says its count, so no axis; room on the right for the longest bar's number.
      x: {
        field: 'count',
        type: 'quantitative',
        title: null,
        axis: null,
        scale: { domain: [0, Math.max(1, ...p.families.map((f) => f.count)) * 1.12], nice: false },
      },
    },
    layer: [
      {
        mark: { type: 'bar', cornerRadiusEnd: 3 },
        encoding: {
          color: {
            condition: { test: `indexof(['${OTHER}', '${UNNAMED}'], datum.name) >= 0`, value: COLORS.line },
            value: COLORS.accent,
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 5, fontSize: 14, fontWeight: 'bold', color: COLORS.ink },
        encoding: { text: { field: 'count' } },
      },
    ],
  };
}
