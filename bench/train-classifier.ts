/**
 * Rebuilds src/core/papers/learned-weights.json: an L2-regularised logistic model over the rules'
 * evidence and the papers' words (src/core/papers/learned.ts), trained on papers labelled by reading:
 * the dev days of test/fixtures/classifier/days (ambiguous ones left out) and the curated dev sets
 * (dev, dev2). The test days and the curated holdouts are never read here.
 *
 * Settings and the decision threshold are chosen by leave-one-day-out over the dev days: the best
 * recall among settings that reach both goals (P 0.92, R 0.90), else the best F1. Reaching the
 * precision goal alone is not enough: with a third dev day it chose a threshold that posted 45% of
 * the relevant papers, a digest readers would find empty.
 *
 *   npx tsx bench/train-classifier.ts [--dry-run]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ruleEvidence } from '../src/core/papers/classify.ts';
import { features, type LearnedModel } from '../src/core/papers/learned.ts';
import { loadSet } from './classify.ts';
import { days, loadDay } from './classify-days.ts';

const OUT = fileURLToPath(new URL('../src/core/papers/learned-weights.json', import.meta.url));
const PRECISION_GOAL = 0.92;
const RECALL_GOAL = 0.9;

interface Example {
  f: Map<string, number>;
  y: 0 | 1;
  group: string;
}

export function examples(): Example[] {
  const out: Example[] = [];
  for (const d of days('dev')) {
    for (const p of loadDay(d)) {
      if (p.label === 'ambiguous') continue;
      const r = ruleEvidence(p);
      if (r.any) out.push({ f: features(r), y: p.label === 'in' ? 1 : 0, group: d });
    }
  }
  for (const set of ['dev', 'dev2'] as const) {
    for (const p of loadSet(set)) {
      const r = ruleEvidence(p);
      if (r.any) out.push({ f: features(r), y: p.label ? 1 : 0, group: `curated-${set}` });
    }
  }
  return out;
}

/** Features seen in at least `minDocs` training papers (rule features always kept). */
function vocabulary(train: readonly Example[], minDocs: number): string[] {
  const df = new Map<string, number>();
  for (const e of train) for (const k of e.f.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  return [...df]
    .filter(([k, n]) => n >= minDocs || !/^(?:t|w):/.test(k))
    .map(([k]) => k)
    .sort();
}

/** Batch gradient descent with Adam on the mean log-loss plus L2 (not on the bias or the rules' raw score). */
export function fit(
  train: readonly Example[],
  opts: { l2: number; minDocs: number; epochs?: number },
): Omit<LearnedModel, 'threshold' | 'version'> {
  const vocab = vocabulary(train, opts.minDocs);
  const index = new Map(vocab.map((k, i) => [k, i]));
  const rows = train.map((e) => ({
    y: e.y,
    xs: [...e.f].flatMap(([k, v]) => (index.has(k) ? [[index.get(k)!, v] as const] : [])),
  }));
  const w = new Float64Array(vocab.length);
  w[index.get('rule:raw')!] = 0.9;
  let b = -2.25;
  const m = new Float64Array(vocab.length + 1);
  const v = new Float64Array(vocab.length + 1);
  const lr = 0.05;
  const pos = rows.filter((r) => r.y === 1).length;
  // Positives are rare on a real day: weigh them up so the loss does not ignore them.
  const posWeight = Math.max(1, (rows.length - pos) / Math.max(pos, 1) / 3);
  for (let epoch = 1; epoch <= (opts.epochs ?? 400); epoch++) {
    const g = new Float64Array(vocab.length + 1);
    for (const r of rows) {
      let z = b;
      for (const [i, x] of r.xs) z += w[i]! * x;
      const p = 1 / (1 + Math.exp(-z));
      const err = (p - r.y) * (r.y === 1 ? posWeight : 1);
      for (const [i, x] of r.xs) g[i]! += err * x;
      g[vocab.length]! += err;
    }
    for (let i = 0; i <= vocab.length; i++) {
      const isBias = i === vocab.length;
      const grad = g[i]! / rows.length + (isBias || vocab[i] === 'rule:raw' ? 0 : opts.l2 * w[i]!);
      m[i] = 0.9 * m[i]! + 0.1 * grad;
      v[i] = 0.999 * v[i]! + 0.001 * grad * grad;
      const step = (lr * (m[i]! / (1 - 0.9 ** epoch))) / (Math.sqrt(v[i]! / (1 - 0.999 ** epoch)) + 1e-8);
      if (isBias) b -= step;
      else w[i]! -= step;
    }
  }
  const weights: Record<string, number> = {};
  vocab.forEach((k, i) => {
    if (Math.abs(w[i]!) >= 0.01) weights[k] = Math.round(w[i]! * 1000) / 1000;
  });
  return { bias: Math.round(b * 1000) / 1000, weights };
}

function probability(model: Omit<LearnedModel, 'threshold' | 'version'>, f: Map<string, number>): number {
  let z = model.bias;
  for (const [k, v] of f) z += (model.weights[k] ?? 0) * v;
  return 1 / (1 + Math.exp(-z));
}

/** Precision and recall at a threshold, counting the papers the rules answer without evidence as negatives. */
function pr(scored: { p: number; y: 0 | 1 }[], missedOutright: number, threshold: number) {
  const tp = scored.filter((s) => s.p >= threshold && s.y === 1).length;
  const fp = scored.filter((s) => s.p >= threshold && s.y === 0).length;
  const fn = scored.filter((s) => s.p < threshold && s.y === 1).length + missedOutright;
  return { precision: tp / Math.max(tp + fp, 1), recall: tp / Math.max(tp + fn, 1) };
}

/** Leave one dev day out: train on the rest (and the curated sets), score the held-out day. */
function validate(all: Example[], settings: { l2: number; minDocs: number }) {
  const scored: { p: number; y: 0 | 1 }[] = [];
  let missedOutright = 0;
  for (const d of days('dev')) {
    const model = fit(
      all.filter((e) => e.group !== d),
      settings,
    );
    for (const e of all.filter((x) => x.group === d)) scored.push({ p: probability(model, e.f), y: e.y });
    missedOutright += loadDay(d).filter((p) => p.label === 'in' && !ruleEvidence(p).any).length;
  }
  const thresholds = Array.from({ length: 17 }, (_, i) => 0.1 + i * 0.05);
  const at = thresholds.map((t) => ({ t, ...pr(scored, missedOutright, t) }));
  const f1 = (x: { precision: number; recall: number }) =>
    (2 * x.precision * x.recall) / Math.max(x.precision + x.recall, 1e-9);
  const meeting = at.filter((x) => x.precision >= PRECISION_GOAL && x.recall >= RECALL_GOAL);
  const best = meeting.length
    ? meeting.reduce((a, x) => (x.recall > a.recall || (x.recall === a.recall && x.precision > a.precision) ? x : a))
    : at.reduce((a, x) => (f1(x) > f1(a) ? x : a));
  return { ...best, f1: f1(best), meetsGoal: meeting.length > 0 };
}

function main(): void {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } });
  const all = examples();
  const grid = [0.003, 0.01, 0.03, 0.1].flatMap((l2) => [5, 10, 1_000_000].map((minDocs) => ({ l2, minDocs })));
  let chosen: ({ l2: number; minDocs: number } & ReturnType<typeof validate>) | undefined;
  for (const s of grid) {
    const r = validate(all, s);
    console.log(
      `l2 ${s.l2} minDocs ${s.minDocs}: threshold ${r.t.toFixed(2)} precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} F1 ${r.f1.toFixed(3)}`,
    );
    const better =
      !chosen ||
      (r.meetsGoal && !chosen.meetsGoal) ||
      (r.meetsGoal === chosen.meetsGoal && (r.meetsGoal ? r.recall > chosen.recall : r.f1 > chosen.f1));
    if (better) chosen = { ...s, ...r };
  }
  const model = fit(all, chosen!);
  const out: LearnedModel = {
    version: `trained on ${days('dev').join(', ')} + curated dev, dev2 (${all.length} papers with evidence); l2 ${chosen!.l2}, min ${chosen!.minDocs} papers per word; leave-one-day-out P ${chosen!.precision.toFixed(3)} R ${chosen!.recall.toFixed(3)}`,
    bias: model.bias,
    threshold: Math.round(chosen!.t * 100) / 100,
    weights: model.weights,
  };
  console.log(`chosen: ${out.version}; threshold ${out.threshold}; ${Object.keys(out.weights).length} weights`);
  if (!values['dry-run']) writeFileSync(OUT, `${JSON.stringify(out, null, 1)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
