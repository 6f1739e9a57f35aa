/**
 * `/trends`: the chart, and its numbers as text (for screen readers, and for when the chart could
 * not be drawn): papers per week with the week's most upvoted paper, then the families' totals.
 * Pure; the chart is drawn by the command.
 */
import type { TrendReach, Trends, TrendWeek } from '../pictures/trends.ts';
import { LIMITS, truncate, type Reply, type ReplyFile } from '../reply.ts';
import { linkTitle, paperLinks } from '../papers/links.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 16" for a week starting 2026-11-16 (as the chart labels it). */
export function weekLabel(start: string): string {
  return `${MONTHS[Number(start.slice(5, 7)) - 1]} ${Number(start.slice(8, 10))}`;
}

/** `trends-gspo-multimodal-12w.png`. */
export function trendsFileName(subject: string, weeks: number): string {
  const slug = subject
    .toLowerCase()
    .replace(/\+\+/g, 'pp')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `trends-${slug || 'papers'}-${weeks}w.png`;
}

/** What the chart shows, in words (its alt text). */
export function trendsAlt(t: Trends): string {
  const counts = t.overall.weeks.map((w) => `${weekLabel(w.start)}: ${w.count}`).join(', ');
  const panels = t.panels.length
    ? ` Smaller panels for ${t.panels.map((p) => `${p.name} (${p.total})`).join(', ')}.`
    : '';
  return `Bar chart of ${t.subject} papers per week, ${t.overall.total} in ${t.range.starts.length} weeks: ${counts}. Each week's top paper's Hugging Face upvotes are written above its bar.${panels}`;
}

export interface TrendsView {
  trends: Trends;
  file?: ReplyFile;
  /** When the subject has no dated paper in the range: the newest day one is dated, if any. */
  newest?: string;
  /** The weeks that hold the subject's dated papers within the longest range, if any: said when the weeks asked miss some. */
  reach?: TrendReach;
  /** The subject's papers in all, whatever their date (the GRPO family's one count, or a family's members). */
  whole?: { total: number; label: string };
}

/** "2 of the 136 GRPO-family papers are in these 4 weeks; 1 is dated only by month; the other 133 are older." */
function wholeLine(t: Trends, whole: NonNullable<TrendsView['whole']>, weeks: number, reach?: TrendReach): string {
  if (whole.total === 0) return `The corpus has no ${whole.label} yet.`;
  const outside = Math.max(0, whole.total - t.overall.total - t.monthOnly);
  const parts = [
    `${t.overall.total} of the ${whole.total} ${whole.label} ${t.overall.total === 1 ? 'is' : 'are'} in these ${weeks} weeks`,
    t.monthOnly ? `${t.monthOnly} ${t.monthOnly === 1 ? 'is' : 'are'} dated only by month` : '',
    outside ? `the other ${outside} ${outside === 1 ? 'is' : 'are'} dated outside them` : '',
  ];
  // A chart that shows few of them says which weeks would show the rest ("try weeks:89").
  const more =
    t.overall.total > 0 && reach && reach.weeks > weeks && reach.papers > t.overall.total
      ? ` To see the ${reach.papers} dated in the last ${MAX_TREND_WEEKS} weeks, try weeks:${reach.weeks}.`
      : '';
  return `${parts.filter(Boolean).join('; ')}.${more}`;
}

export function trendsReply(v: TrendsView): Reply {
  const t = v.trends;
  const weeks = t.range.starts.length;
  const title = truncate(`${t.subject}: papers per week`, LIMITS.title);
  if (t.overall.total === 0) {
    const hint =
      v.newest && v.newest < t.range.from ? ` The newest dated one is from ${v.newest}${reachHint(v.reach)}` : '';
    return {
      embeds: [
        {
          title,
          description: `No paper of ${t.subject} is dated in the ${weeks} weeks from ${t.range.from} to today.${hint}${monthOnlyNote(t)}${v.whole ? ` ${wholeLine(t, v.whole, weeks)}` : ''}`,
        },
      ],
    };
  }
  const byFamily = t.panels.map((p) => `${p.name} ${p.total}`).join(' · ');
  return {
    embeds: [
      {
        title,
        description: weekLines(t.overall.weeks),
        fields: [
          {
            name: 'In all',
            value: v.whole
              ? wholeLine(t, v.whole, weeks, v.reach)
              : `${t.overall.total} paper${t.overall.total === 1 ? '' : 's'} in ${weeks} weeks`,
            inline: true,
          },
          ...(byFamily
            ? [
                {
                  name: 'By family',
                  value: truncate(
                    `${byFamily} (members in these weeks; a paper in two families counts in both)`,
                    LIMITS.fieldValue,
                  ),
                  inline: true,
                },
              ]
            : []),
        ],
        ...(v.file && { image: v.file.name }),
        footer: truncate(
          `Weeks start on Monday (UTC). A paper's week is when a feed announced it, else its publication date.${monthOnlyNote(t)} ▲ = Hugging Face upvotes of the week's top paper.${v.file ? '' : ' The chart could not be drawn this time; the numbers above say the same.'}`,
          LIMITS.footer,
        ),
      },
    ],
    ...(v.file && { files: [v.file] }),
  };
}

/**
 * One line per week, oldest first like the chart, a run of empty weeks as one line; the top papers'
 * titles go when the list would be too long. A week in another year than the last one names its year.
 */
function weekLines(weeks: readonly TrendWeek[]): string {
  const year = weeks.at(-1)?.start.slice(0, 4);
  const label = (start: string) => `${weekLabel(start)}${start.slice(0, 4) === year ? '' : ` ${start.slice(0, 4)}`}`;
  const runs: TrendWeek[][] = [];
  for (const w of weeks) {
    const run = runs.at(-1);
    if (run && w.count === 0 && run[0]!.count === 0) run.push(w);
    else runs.push([w]);
  }
  const lines = (titles: boolean) =>
    runs
      .map((run) => {
        const w = run[0]!;
        if (run.length > 1) return `${label(w.start)} – ${label(run.at(-1)!.start)} · 0`;
        const top = w.top ? ` · ▲ ${w.top.hfUpvotes}${titles ? ` ${topLink(w.top)}` : ''}` : '';
        return `**${label(w.start)}** · ${w.count}${top}`;
      })
      .join('\n');
  const full = lines(true);
  return full.length <= LIMITS.description ? full : truncate(lines(false), LIMITS.description);
}

function topLink(top: NonNullable<TrendWeek['top']>): string {
  // Paper text: shown as text (issue 15), brackets and line breaks gone so the link's label stays one.
  const name = truncate(linkTitle(top.title), 70);
  return top.arxivId ? `[${name}](${paperLinks({ arxivId: top.arxivId, title: top.title }).main})` : name;
}

function monthOnlyNote(t: Trends): string {
  return t.monthOnly
    ? ` ${t.monthOnly} paper${t.monthOnly === 1 ? ' is' : 's are'} dated only by month and in no week.`
    : '';
}

/**
 * "try weeks:89", the weeks that hold every paper the longest range can show (not just the newest,
 * which drew one bar and empty weeks), or that the newest is older than the longest range.
 */
function reachHint(reach: TrendReach | undefined): string {
  if (!reach) return `: older than the longest range (${MAX_TREND_WEEKS} weeks).`;
  if (reach.papers === 1) return `: try weeks:${reach.weeks}.`;
  return `; the ${reach.papers} dated in the last ${MAX_TREND_WEEKS} weeks go back to the week of ${reach.from}: try weeks:${reach.weeks}.`;
}

/** The longest range `/trends` draws. */
export const MAX_TREND_WEEKS = 104;
