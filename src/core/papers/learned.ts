/**
 * The learned half of the key-less filter (pure): a logistic model over the rules' own evidence and
 * the paper's words and word pairs, trained on papers labelled by reading (bench/train-classifier.ts
 * writes the weights to learned-weights.json; rebuild after changing the labelled sets or the
 * rules). The rules find the evidence and explain it; the model learns how much each piece is worth
 * on real daily listings, where "RL" alone means little and a name like GRPO means a lot.
 */
import { terms } from '../text/analyze.ts';
import WEIGHTS from './learned-weights.json' with { type: 'json' };
import type { RuleEvidence } from './classify.ts';

export interface LearnedModel {
  /** Which labelled sets and settings produced the weights (the build records them). */
  version: string;
  bias: number;
  /** The decision threshold on the model's probability, chosen on the dev days. */
  threshold: number;
  weights: Record<string, number>;
}

export const MODEL: LearnedModel = WEIGHTS;

/**
 * A paper's features: the rules' raw evidence, each rule that fired (by its weight, so the model
 * rescales it), and the words and adjacent word pairs of title and abstract (present or not).
 */
export function features(r: RuleEvidence): Map<string, number> {
  const f = new Map<string, number>([['rule:raw', r.raw]]);
  for (const e of r.evidence) f.set(e.key, (f.get(e.key) ?? 0) + e.weight);
  const title = terms(r.title);
  const abstract = terms(r.abstract);
  for (const w of title) f.set(`t:${w}`, 1);
  for (const seq of [title, abstract]) {
    for (let i = 0; i < seq.length; i++) {
      f.set(`w:${seq[i]}`, 1);
      if (i + 1 < seq.length) f.set(`w:${seq[i]} ${seq[i + 1]}`, 1);
    }
  }
  return f;
}

/** The model's log-odds for a paper, with the features that moved it most (for the reasons). */
export function logit(
  f: ReadonlyMap<string, number>,
  m: LearnedModel = MODEL,
): { logit: number; top: [string, number][] } {
  let z = m.bias;
  const parts: [string, number][] = [];
  for (const [name, value] of f) {
    const w = m.weights[name];
    if (w === undefined) continue;
    z += w * value;
    if (!name.startsWith('rule:')) parts.push([name, w * value]);
  }
  parts.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return { logit: z, top: parts.slice(0, 3) };
}

/** A learned feature as a reader sees it: `learned: "verifiable reward" +0.8`. */
export function featureReason([name, contribution]: [string, number]): string {
  const label = name.replace(/^(?:t|w):/, '').replace(/^(?:family|cue|neg|rl|own|survey):/, 'rule ');
  return `learned: "${label}" ${contribution >= 0 ? '+' : ''}${contribution.toFixed(2)}`;
}
