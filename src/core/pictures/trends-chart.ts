/**
 * `/trends` as a Vega-Lite chart: the subject's papers per week as bars, each week's top paper's HF
 * upvotes written above its bar (▲ 37) and above any neighbour the label spans, then one small
 * panel per family on a shared scale, so the panels compare at a glance. Week labels are formatted in UTC, so the picture does not depend on
 * the machine's time zone. Pure: data in, spec out; src/services/render draws it.
 */
import type { TopLevelSpec } from 'vega-lite';
import { chartBase, COLORS } from './theme.ts';
import type { Trends, TrendSeries } from './trends.ts';

const WIDTH = 440;
const DATE = "toDate(datum.value + 'T00:00:00Z')";
/** Up to half a year, each labelled week is "Sep 7"; longer ranges name the month, with its year, at its first week ("Dec ’25"). */
const WEEK_LABEL = `utcFormat(${DATE}, '%b %-d')`;
const MONTH_LABEL = `utcdate(${DATE}) <= 7 ? utcFormat(${DATE}, '%b \u2019%y') : ''`;
const UPVOTE_FONT = 12;

/**
 * Half the width of an upvote label in px, a little generous: in bold DejaVu Sans at UPVOTE_FONT px,
 * ▲ is about 0.77 em, the space 0.35 em and each digit 0.70 em; 2 px of air on each side.
 */
export function upvoteLabelHalf(upvotes: number): number {
  return ((0.77 + 0.35 + 0.7 * String(upvotes).length) * UPVOTE_FONT + 4) / 2;
}

/**
 * The weeks whose top paper's upvotes are written above the bars, each with the count it sits above:
 * most upvoted first, skipping a week whose label would touch one already placed (bars get narrow
 * over many weeks). A label is wider than its bar, so it sits above the tallest bar it spans, never
 * across a taller neighbour (issue 27: "▲ 20" was written over the bars beside it). The text answer
 * lists every week's.
 */
export function upvoteLabels(s: TrendSeries): Map<string, number> {
  const step = WIDTH / Math.max(1, s.weeks.length);
  const ranked = s.weeks
    .map((w, i) => ({ i, w }))
    .filter((x) => x.w.top)
    .sort((a, b) => b.w.top!.hfUpvotes - a.w.top!.hfUpvotes || a.i - b.i);
  const placed: { i: number; half: number }[] = [];
  for (const { i, w } of ranked) {
    const half = upvoteLabelHalf(w.top!.hfUpvotes);
    if (placed.every((p) => Math.abs(p.i - i) * step >= p.half + half)) placed.push({ i, half });
  }
  return new Map(
    placed.map(({ i, half }) => {
      // Every bar whose band reaches under the label: its centre within half a step of the label's ends.
      const under = s.weeks.filter((_, j) => Math.abs(j - i) * step < half + step / 2);
      return [s.weeks[i]!.start, Math.max(...under.map((w) => w.count))];
    }),
  );
}

export function trendsChartSpec(t: Trends): TopLevelSpec {
  const panelMax = Math.max(1, ...t.panels.flatMap((p) => p.weeks.map((w) => w.count)));
  const last = t.range.starts.at(-1) ?? t.range.from;
  return {
    ...chartBase({
      axis: { labelFontSize: 13, labelPadding: 4 },
      title: { fontSize: 15, offset: 8 },
      concat: { spacing: 18 },
    }),
    title: {
      text: `${t.subject}: papers per week`,
      subtitle: [
        `${t.range.starts.length} weeks from ${t.range.from} to ${last} (UTC, weeks start on Monday)`,
        "▲ n: Hugging Face upvotes of the week's top paper (where there is room)",
      ],
      fontSize: 18,
    },
    vconcat: [overallChart(t.overall), ...t.panels.map((p, i) => panelChart(p, panelMax, i === t.panels.length - 1))],
  };
}

const x = (labels: boolean, weeks: number) => ({
  field: 'start',
  type: 'ordinal' as const,
  title: null,
  axis: labels
    ? { labelAngle: 0, labelExpr: weeks > 26 ? MONTH_LABEL : WEEK_LABEL, labelOverlap: true, labelSeparation: 6 }
    : { labels: false, ticks: false },
});

function overallChart(s: TrendSeries) {
  const labels = upvoteLabels(s);
  return {
    width: WIDTH,
    height: 150,
    title: { text: `${s.name} · ${s.total} paper${s.total === 1 ? '' : 's'}`, fontSize: 15 },
    data: {
      values: s.weeks.map((w) => ({
        start: w.start,
        count: w.count,
        upvotes: w.top && labels.has(w.start) ? `▲ ${w.top.hfUpvotes}` : '',
        labelAt: labels.get(w.start) ?? w.count,
      })),
    },
    encoding: {
      x: x(true, s.weeks.length),
      y: { field: 'count', type: 'quantitative' as const, title: null, axis: { tickCount: 4, tickMinStep: 1 } },
    },
    layer: [
      { mark: { type: 'bar' as const, color: COLORS.accent } },
      {
        mark: {
          type: 'text' as const,
          dy: -9,
          fontSize: UPVOTE_FONT,
          fontWeight: 'bold' as const,
          color: COLORS.upvotes,
        },
        encoding: { text: { field: 'upvotes' }, y: { field: 'labelAt', type: 'quantitative' as const } },
      },
    ],
  };
}

function panelChart(s: TrendSeries, max: number, labels: boolean) {
  return {
    width: WIDTH,
    height: 48,
    title: { text: `${s.name} · ${s.total}`, fontSize: 14 },
    data: { values: s.weeks.map((w) => ({ start: w.start, count: w.count })) },
    mark: { type: 'bar' as const, color: COLORS.line },
    encoding: {
      x: x(labels, s.weeks.length),
      y: {
        field: 'count',
        type: 'quantitative' as const,
        title: null,
        scale: { domain: [0, max] },
        axis: { tickCount: 2, tickMinStep: 1 },
      },
    },
  };
}
