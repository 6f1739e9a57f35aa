/**
 * The GRPO-family filter on the stream users get: complete arXiv days (test/fixtures/classifier/days),
 * per day what a digest reader sees: papers the bot would post, off-topic among them, relevant ones
 * missed, and precision/recall/F1 (ambiguous papers left out of P/R, counted when posted). Dev days
 * are for tuning; test days were frozen before any.
 *
 *   npx tsx bench/classify-days.ts [--split dev|test|fresh|all] [--errors]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { classifyPaper, decideByRules, ruleEvidence } from '../src/core/papers/classify.ts';
import { GREY } from '../src/services/relevance/judge.ts';
import { round } from './stats.ts';

const DIR = fileURLToPath(new URL('../test/fixtures/classifier/days/', import.meta.url));
/**
 * dev: tuned on. test: frozen before any tuning, evaluated as the filter changed. fresh: labelled after
 * the filter was final (2026-11-24) and evaluated once, so no decision about the filter ever saw them.
 * 2026-10-09 was fresh until its one evaluation showed a rules gap that was then fixed: it is dev now.
 */
export type DaySplit = 'dev' | 'test' | 'fresh';
export const DAY_SPLIT: Record<string, DaySplit> = {
  '2026-10-02': 'test',
  '2026-10-05': 'dev',
  '2026-10-06': 'fresh',
  '2026-10-07': 'test',
  '2026-10-08': 'dev',
  '2026-10-09': 'dev',
  '2026-10-01': 'dev',
  '2026-06-09': 'test',
  '2026-05-28': 'fresh',
};

const DayPaper = z.object({
  id: z.string(),
  title: z.string(),
  abstract: z.string(),
  announced: z.array(z.string()),
  label: z.enum(['in', 'out', 'ambiguous']),
  reason: z.string(),
  /** Papers with no RL, reward or policy wording keep only their abstract's first sentence (days from 2026-11-28). */
  abstract_truncated: z.boolean().optional(),
});
export type DayPaper = z.infer<typeof DayPaper>;
export type Decide = (p: { title: string; abstract: string }) => boolean;

export function loadDay(date: string): DayPaper[] {
  return readFileSync(`${DIR}${date}.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => DayPaper.parse(JSON.parse(l)));
}

export function days(split: DaySplit | 'all' = 'all'): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, 10))
    .filter((d) => split === 'all' || DAY_SPLIT[d] === split)
    .sort();
}

export interface DayScore {
  papers: number;
  relevant: number;
  posted: number;
  offTopic: number;
  ambiguousPosted: number;
  missed: number;
  precision: number;
  recall: number;
  f1: number;
}

export function scoreDay(
  papers: readonly DayPaper[],
  decide: Decide,
): DayScore & { errors: { paper: DayPaper; kind: 'off-topic' | 'missed' }[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let amb = 0;
  const errors: { paper: DayPaper; kind: 'off-topic' | 'missed' }[] = [];
  for (const p of papers) {
    const yes = decide(p);
    if (p.label === 'ambiguous') amb += yes ? 1 : 0;
    else if (yes && p.label === 'in') tp++;
    else if (yes) {
      fp++;
      errors.push({ paper: p, kind: 'off-topic' });
    } else if (p.label === 'in') {
      fn++;
      errors.push({ paper: p, kind: 'missed' });
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return {
    papers: papers.length,
    relevant: tp + fn,
    posted: tp + fp + amb,
    offTopic: fp,
    ambiguousPosted: amb,
    missed: fn,
    precision: round(precision, 3),
    recall: round(recall, 3),
    f1: round(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), 3),
    errors,
  };
}

/** Precision and recall over several days pooled (micro-averaged). */
export function pooled(
  scores: readonly DayScore[],
): Pick<DayScore, 'precision' | 'recall' | 'f1'> & { papers: number } {
  const tp = scores.reduce((s, d) => s + d.relevant - d.missed, 0);
  const fp = scores.reduce((s, d) => s + d.offTopic, 0);
  const fn = scores.reduce((s, d) => s + d.missed, 0);
  const precision = tp / Math.max(tp + fp, 1);
  const recall = tp / Math.max(tp + fn, 1);
  return {
    papers: scores.reduce((s, d) => s + d.papers, 0),
    precision: round(precision, 3),
    recall: round(recall, 3),
    f1: round((2 * precision * recall) / Math.max(precision + recall, 1e-9), 3),
  };
}

/** Papers per second over every day's listing, repeated to about `target` classifications. */
export function listingThroughput(decide: Decide, target = 20_000): number {
  const all = days().flatMap(loadDay);
  const reps = Math.max(1, Math.round(target / all.length));
  for (const p of all) decide(p);
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) for (const p of all) decide(p);
  return Math.round((reps * all.length * 1000) / (performance.now() - t0));
}

/**
 * The judge's dollars per paper: bench/judge-cost.ts on four real days (docs/BENCHMARKS.md, 2026-11-23) spent
 * $0.063-$0.080 for 35-46 papers with the cached system prompt, about $0.0017 a paper (Claude Haiku 4.5).
 */
export const JUDGE_USD_PER_PAPER = 0.0017;

export interface BandCeiling {
  /** Papers whose score falls in the band: what the judge reads that day. */
  judged: number;
  usd: number;
  /** The filter's errors (off-topic posted, relevant missed) and how many of them the band holds. */
  errors: number;
  held: number;
  /** What the bot would post if a perfect judge decided every paper in the band (ambiguous ones as the filter did). */
  withPerfectJudge: DayScore;
}

/** The band as a measured ceiling: a perfect judge inside it, the filter outside. */
export function bandCeiling(papers: readonly DayPaper[], band: { min: number; max: number } = GREY): BandCeiling {
  const scored = new Map(papers.map((p) => [p, classifyPaper(p)]));
  const inBand = (p: DayPaper) => {
    const s = scored.get(p)!.score;
    return s >= band.min && s <= band.max;
  };
  const { errors } = scoreDay(papers, (p) => scored.get(p as DayPaper)!.grpoFamily);
  const judged = papers.filter(inBand).length;
  const { errors: _e, ...withPerfectJudge } = scoreDay(papers, (q) => {
    const p = q as DayPaper;
    return inBand(p) && p.label !== 'ambiguous' ? p.label === 'in' : scored.get(p)!.grpoFamily;
  });
  return {
    judged,
    usd: round(judged * JUDGE_USD_PER_PAPER, 3),
    errors: errors.length,
    held: errors.filter((e) => inBand(e.paper)).length,
    withPerfectJudge,
  };
}

/** The key-less filter as the bot runs it: the rules' evidence weighed by the learned model. */
export const filter: Decide = (p) => classifyPaper(p).grpoFamily;
/** The rules alone (the filter before the learned model): the baseline. */
export const rulesOnly: Decide = (p) => decideByRules(ruleEvidence(p)).grpoFamily;

export interface ClassifyDaysResult {
  band: { min: number; max: number };
  days: { day: string; split: DaySplit; rules: DayScore; filter: DayScore; band: BandCeiling }[];
  pooled: { split: DaySplit; rules: ReturnType<typeof pooled>; filter: ReturnType<typeof pooled> }[];
  throughput: { rules: number; filter: number };
}

/** `npm run bench -- --only classify`: every labelled day, the rules (baseline) against the filter, pooled per split. */
export function benchClassifyDays(): ClassifyDaysResult {
  const perDay = days().map((day) => {
    const papers = loadDay(day);
    const { errors: _r, ...rules } = scoreDay(papers, rulesOnly);
    const { errors: _f, ...filtered } = scoreDay(papers, filter);
    return { day, split: DAY_SPLIT[day]!, rules, filter: filtered, band: bandCeiling(papers) };
  });
  const splits = [...new Set(perDay.map((d) => d.split))];
  return {
    band: { ...GREY },
    days: perDay,
    pooled: splits.map((split) => {
      const of = perDay.filter((d) => d.split === split);
      return { split, rules: pooled(of.map((d) => d.rules)), filter: pooled(of.map((d) => d.filter)) };
    }),
    throughput: { rules: listingThroughput(rulesOnly), filter: listingThroughput(filter) },
  };
}

export function classifyDaysReport(r: ClassifyDaysResult): string {
  const prf = (s: Pick<DayScore, 'precision' | 'recall' | 'f1'>) =>
    `${s.precision.toFixed(3)} / ${s.recall.toFixed(3)} / ${s.f1.toFixed(3)}`;
  const lines = [
    'The family filter on complete arXiv days (ambiguous papers left out of P/R, counted when posted)',
    '| day | split | papers | relevant | rules: posted / off-topic / missed | rules P / R / F1 | filter: posted / off-topic / missed | filter P / R / F1 |',
    '|---|---|---:|---:|---|---|---|---|',
    ...r.days.map(
      (d) =>
        `| ${d.day} | ${d.split} | ${d.filter.papers} | ${d.filter.relevant} | ${d.rules.posted} / ${d.rules.offTopic} / ${d.rules.missed} | ${prf(d.rules)} | ${d.filter.posted} / ${d.filter.offTopic} / ${d.filter.missed} | ${prf(d.filter)} |`,
    ),
    ...r.pooled.map(
      (p) => `| **${p.split} days pooled** | | ${p.filter.papers} | | | ${prf(p.rules)} | | ${prf(p.filter)} |`,
    ),
    `throughput on the listings: rules ${r.throughput.rules} papers/s, filter ${r.throughput.filter} papers/s`,
    '',
    `The judge's band [${r.band.min}, ${r.band.max}] as a ceiling: a perfect judge decides every paper in it (cost at $${JUDGE_USD_PER_PAPER} a paper)`,
    '| day | split | sent to the judge | $ a day | filter errors held | with a perfect judge: posted / off-topic / missed | P / R / F1 |',
    '|---|---|---:|---:|---|---|---|',
    ...r.days.map(
      (d) =>
        `| ${d.day} | ${d.split} | ${d.band.judged} | ${d.band.usd.toFixed(3)} | ${d.band.held} of ${d.band.errors} | ${d.band.withPerfectJudge.posted} / ${d.band.withPerfectJudge.offTopic} / ${d.band.withPerfectJudge.missed} | ${prf(d.band.withPerfectJudge)} |`,
    ),
    ...r.pooled.map((p) => {
      const of = r.days.filter((d) => d.split === p.split);
      const held = of.reduce((s, d) => s + d.band.held, 0);
      const errors = of.reduce((s, d) => s + d.band.errors, 0);
      const judged = of.reduce((s, d) => s + d.band.judged, 0);
      return `| **${p.split} days pooled** | | ${(judged / of.length).toFixed(1)} a day | | ${held} of ${errors} (${Math.round((100 * held) / Math.max(errors, 1))}%) | | ${prf(pooled(of.map((d) => d.band.withPerfectJudge)))} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: { split: { type: 'string', default: 'all' }, errors: { type: 'boolean', default: false } },
  });
  for (const [name, decide] of [
    ['rules only (baseline)', rulesOnly],
    ['filter (rules + learned)', filter],
  ] as const) {
    console.log(name);
    const scores: DayScore[] = [];
    for (const d of days(values.split as DaySplit | 'all')) {
      const s = scoreDay(loadDay(d), decide);
      scores.push(s);
      const { errors, ...figures } = s;
      console.log(`  ${d} (${DAY_SPLIT[d]}) ${JSON.stringify(figures)}`);
      if (values.errors)
        for (const e of errors)
          console.log(`     ${e.kind.padEnd(9)} ${e.paper.id} ${e.paper.title.slice(0, 90)} | ${e.paper.reason}`);
    }
    console.log(`  pooled ${JSON.stringify(pooled(scores))}`);
    console.log(`  throughput ${listingThroughput(decide)} papers/s on the listings`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
