/**
 * `/trends` as numbers: papers per week (weeks start on Monday, UTC) for the asked subject — the
 * GRPO family, one family, a topic, or a family within a topic — with the week's most upvoted paper
 * on Hugging Face, and the same per week for the families with most papers in the subject (for one
 * family: the families building directly on it). The chart (trends-chart.ts) and the text answer
 * (src/core/views/trends.ts) both read this. Pure.
 */
/** A paper as `/trends` counts it (db/queries/trends.ts reads them). */
export type TrendPaperRow = {
  /** YYYY-MM-DD (UTC), or null when only the month is known. */
  day: string | null;
  grpoFamily: boolean;
  /** The families it builds on (a family's defining paper counts in it). */
  families: string[];
  topics: string[];
  hfUpvotes: number | null;
  title: string;
  arxivId: string | null;
};

const DAY_MS = 86_400_000;

/** The weeks shown: `weeks` Mondays ending with the current week, and the date range they cover ([from, to), `to` is tomorrow). */
export interface TrendRange {
  starts: string[];
  from: string;
  to: string;
}

export interface TrendTop {
  title: string;
  arxivId: string | null;
  hfUpvotes: number;
}

export interface TrendWeek {
  /** The week's Monday, YYYY-MM-DD. */
  start: string;
  count: number;
  /** The week's paper with most HF upvotes (at least one); only on the subject's series. */
  top?: TrendTop;
}

export interface TrendSeries {
  name: string;
  total: number;
  weeks: TrendWeek[];
}

export interface Trends {
  /** What was asked, e.g. "GRPO family", "GSPO", "GRPO family · Multimodal". */
  subject: string;
  range: TrendRange;
  /** Every paper of the subject per week, with the week's top paper. */
  overall: TrendSeries;
  /** The families with most papers in the subject, largest first. */
  panels: TrendSeries[];
  /** Papers of the subject in the range dated only by their month: in no week. */
  monthOnly: number;
}

export interface TrendAsk {
  /** The family asked for, and the families building directly on it (its panels). */
  family?: { name: string; children: readonly string[] };
  topic?: { slug: string; label: string };
  /** Families to consider for the panels when no family is asked (every family). */
  families: readonly string[];
  /** At most this many panels. */
  panels: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** The Monday (UTC) of the week a day (YYYY-MM-DD) is in. */
export function weekStart(d: string): string {
  const t = ms(d);
  return day(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS);
}

export function trendRange(now: Date, weeks: number): TrendRange {
  const today = day(now.getTime());
  const last = ms(weekStart(today));
  const starts = Array.from({ length: weeks }, (_, i) => day(last - (weeks - 1 - i) * 7 * DAY_MS));
  return { starts, from: starts[0]!, to: day(ms(today) + DAY_MS) };
}

export function buildTrends(rows: readonly TrendPaperRow[], range: TrendRange, ask: TrendAsk): Trends {
  const inSubject = rows.filter(
    (r) =>
      (ask.family ? r.families.includes(ask.family.name) : r.grpoFamily) &&
      (!ask.topic || r.topics.includes(ask.topic.slug)),
  );
  const dated = inSubject.filter(
    (r): r is TrendPaperRow & { day: string } => r.day !== null && r.day >= range.from && r.day < range.to,
  );
  const subject = [ask.family?.name ?? 'GRPO family', ask.topic?.label].filter(Boolean).join(' · ');
  const candidates = ask.family ? ask.family.children : ask.families;
  const panels = candidates
    .map((name) =>
      series(
        name,
        dated.filter((r) => r.families.includes(name)),
        range,
        false,
      ),
    )
    .filter((s) => s.total > 0)
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name))
    .slice(0, ask.panels);
  return {
    subject,
    range,
    overall: series(subject, dated, range, true),
    panels,
    monthOnly: inSubject.length - dated.length,
  };
}

function series(
  name: string,
  papers: readonly (TrendPaperRow & { day: string })[],
  range: TrendRange,
  tops: boolean,
): TrendSeries {
  const byWeek = new Map<string, (TrendPaperRow & { day: string })[]>();
  for (const p of papers) {
    const start = weekStart(p.day);
    const list = byWeek.get(start);
    if (list) list.push(p);
    else byWeek.set(start, [p]);
  }
  const weeks = range.starts.map((start): TrendWeek => {
    const inWeek = byWeek.get(start) ?? [];
    const top = tops ? topPaper(inWeek) : undefined;
    return { start, count: inWeek.length, ...(top && { top }) };
  });
  return { name, total: papers.length, weeks };
}

function topPaper(papers: readonly TrendPaperRow[]): TrendTop | undefined {
  let best: TrendPaperRow | undefined;
  for (const p of papers) if ((p.hfUpvotes ?? 0) > (best?.hfUpvotes ?? 0)) best = p;
  return best ? { title: best.title, arxivId: best.arxivId, hfUpvotes: best.hfUpvotes ?? 0 } : undefined;
}

/** The fewest weeks, ending with the current one, that hold every dated paper of a subject. */
export interface TrendReach {
  weeks: number;
  /** Dated papers in those weeks. */
  papers: number;
  /** The Monday of the week of the oldest. */
  from: string;
}

/**
 * How far back `/trends` must look to show a subject's papers, from its trends over a long range:
 * from the week of the oldest dated paper in it to the current week; none when it has no dated paper.
 * Suggesting the newest paper's week instead drew one bar at the left edge and empty weeks after it
 * (issue 27: "try weeks:34" on the seed corpus showed 1 of its 45 dated papers).
 */
export function trendReach(t: Trends): TrendReach | undefined {
  const first = t.overall.weeks.findIndex((w) => w.count > 0);
  if (first < 0) return undefined;
  return { weeks: t.overall.weeks.length - first, papers: t.overall.total, from: t.overall.weeks[first]!.start };
}
