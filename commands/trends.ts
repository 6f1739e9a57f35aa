import { optionsOf, type Command, type CommandDefinition } from '../src/core/command.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { FAMILIES, FAMILY_NAMES, familyRef } from '../src/core/papers/families.ts';
import { TOPICS } from '../src/core/papers/topics.ts';
import { childrenOf } from '../src/core/pictures/family-tree.ts';
import { buildTrends, trendRange, trendReach, type TrendAsk } from '../src/core/pictures/trends.ts';
import { trendsChartSpec } from '../src/core/pictures/trends-chart.ts';
import { drawChart, pictureFile, tryDraw } from '../src/services/render/picture.ts';
import { MAX_TREND_WEEKS, trendsAlt, trendsFileName, trendsReply, type TrendsView } from '../src/core/views/trends.ts';
import { newestTrendDay, trendPapers } from '../db/queries/trends.ts';
import { familyCounts } from '../db/queries/families.ts';
import { grpoFamilyCount } from '../db/queries/status.ts';
import { familyChoices, resolveFamily } from './family.ts';

const DEFAULT_WEEKS = 12;
/** At most this many family panels under the subject's bars: a phone still shows them large enough. */
const PANELS = 3;

const definition = {
  name: 'trends',
  description: 'Papers per week as a chart: the GRPO family, one family or a topic',
  options: [
    {
      name: 'family',
      description: 'Only papers building on this family, e.g. GSPO',
      type: 'string',
      autocomplete: true,
      maxLength: 60,
    },
    {
      name: 'topic',
      description: 'Only papers of this topic',
      type: 'string',
      choices: TOPICS.map((t) => ({ name: t.label, value: t.slug })),
    },
    {
      name: 'weeks',
      description: `How many weeks back (default ${DEFAULT_WEEKS})`,
      type: 'integer',
      minValue: 4,
      maxValue: MAX_TREND_WEEKS,
    },
  ],
} as const satisfies CommandDefinition;

/**
 * `/trends [family] [topic] [weeks]`: papers per week as a chart — the subject's bars with each
 * week's most upvoted paper on Hugging Face, and small panels for its largest families (for one
 * family: the families building on it) — with the numbers as text.
 */
export const trends: Command = {
  definition,
  async execute(input, deps) {
    const o = optionsOf(definition, input);
    const family = o.family === undefined ? undefined : resolveFamily(o.family);
    const topic = o.topic === undefined ? undefined : TOPICS.find((t) => t.slug === o.topic);
    if (o.topic !== undefined && !topic) throw new UserFacingError(`Unknown topic "${o.topic}". See /topics.`);
    const now = deps.now();
    const range = trendRange(now, o.weeks ?? DEFAULT_WEEKS);
    const ask: TrendAsk = {
      families: FAMILY_NAMES,
      panels: PANELS,
      ...(family && { family: { name: family.name, children: childrenOf(FAMILIES, family.name) } }),
      ...(topic && { topic: { slug: topic.slug, label: topic.label } }),
    };
    const [rows, whole] = await Promise.all([
      trendPapers(deps.db, FAMILIES.map(familyRef), range),
      topic ? undefined : wholeSubject(deps, family),
    ]);
    const t = buildTrends(rows, range, ask);
    const of = whole && { whole };
    if (t.overall.total === 0)
      return trendsReply({ trends: t, ...of, ...(await whereTheyAre(deps, now, ask, family)) });
    const file = await tryDraw(deps.log, 'trends chart', async () =>
      pictureFile(await drawChart(trendsChartSpec(t)), trendsFileName(t.subject, range.starts.length), trendsAlt(t)),
    );
    // Papers dated outside the weeks asked: say which weeks hold them (the longest range's reach).
    const missing = whole && whole.total > t.overall.total + t.monthOnly && range.starts.length < MAX_TREND_WEEKS;
    const reach = missing ? await reachOf(deps, now, ask) : undefined;
    return trendsReply({ trends: t, ...of, ...(file && { file }), ...(reach && { reach }) });
  },
  async autocomplete(_input, focused) {
    return focused.name === 'family' ? familyChoices(focused.value) : [];
  },
};

/**
 * For a subject with no dated paper in the weeks asked: the newest day one is dated, and the weeks
 * (ending now, at most the longest range) that hold its dated papers, so the answer can say how far
 * back to look.
 */
async function whereTheyAre(
  deps: Parameters<typeof trends.execute>[1],
  now: Date,
  ask: TrendAsk,
  family: ReturnType<typeof resolveFamily> | undefined,
): Promise<Pick<TrendsView, 'newest' | 'reach'>> {
  const [newest, reach] = await Promise.all([
    newestTrendDay(deps.db, {
      ...(family && { family: familyRef(family) }),
      ...(ask.topic && { topic: ask.topic.slug }),
    }),
    reachOf(deps, now, ask),
  ]);
  return { ...(newest && { newest }), ...(reach && { reach }) };
}

/** The weeks (ending now, at most the longest range) that hold the subject's dated papers, if any. */
async function reachOf(deps: Parameters<typeof trends.execute>[1], now: Date, ask: TrendAsk) {
  const longest = trendRange(now, MAX_TREND_WEEKS);
  return trendReach(buildTrends(await trendPapers(deps.db, FAMILIES.map(familyRef), longest), longest, ask));
}

/**
 * How many papers the subject has in all, whatever their date: the GRPO family's one count (as /topics,
 * /family list and /status give it), or one family's members (as /family list gives them), so the
 * answer can say which part of it the weeks show.
 */
async function wholeSubject(
  deps: Parameters<typeof trends.execute>[1],
  family: ReturnType<typeof resolveFamily> | undefined,
): Promise<{ total: number; label: string }> {
  if (!family) return { total: await grpoFamilyCount(deps.db), label: 'GRPO-family papers' };
  const epoch = { from: new Date(0), to: new Date(0) };
  const counts = await familyCounts(deps.db, [familyRef(family)], epoch);
  return { total: counts.get(family.name)?.total ?? 0, label: `members of ${family.name}` };
}
