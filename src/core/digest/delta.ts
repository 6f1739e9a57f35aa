/**
 * The GRPO delta in one line: only the axes a paper changes, in a fixed order, e.g.
 * "clipping: changed: decoupled ε_low/ε_high · KL: removed". Pure.
 */
import { fit, squash } from '../text/clip.ts';

/**
 * The fixed axes along which a paper is compared with GRPO, in the order a reader of GRPO papers scans
 * them. The summariser's schema asks for exactly these; the labels in labels.ts are keyed by them.
 */
export const GRPO_AXES = [
  'advantage_normalization',
  'clipping',
  'kl_term',
  'loss_aggregation',
  'importance_sampling_level',
  'sampling_filtering',
  'reward_type',
] as const;
export type GrpoAxis = (typeof GRPO_AXES)[number];

/** Values that mean "same as GRPO" (English and Chinese, with or without a trailing stop or explanation). */
const UNCHANGED =
  /^(unchanged|same|same as grpo|as in grpo|no change|none|n\/a|na|not applicable|not specified|unspecified|-|—|不变|无变化|未改变|与 ?grpo ?相同|同 ?grpo|未说明)(?:[.。;；,，:：]|$)/i;

export function isUnchanged(value: string): boolean {
  return squash(value) === '' || UNCHANGED.test(squash(value));
}

/**
 * "axis: value · axis: value" for the changed axes, labels from `axisLabels`; each value at most
 * `perAxis` characters and the line at most `max`. Undefined when nothing changed.
 */
export function compactDelta(
  delta: Record<string, string> | undefined,
  axisLabels: Record<string, string>,
  opts: { max: number; perAxis?: number },
): string | undefined {
  if (!delta) return undefined;
  const known: readonly string[] = GRPO_AXES;
  const keys = [
    ...GRPO_AXES.filter((k) => k in delta),
    ...Object.keys(delta)
      .filter((k) => !known.includes(k))
      .sort(),
  ];
  const parts: string[] = [];
  for (const key of keys) {
    const value = delta[key];
    if (typeof value !== 'string' || isUnchanged(value)) continue;
    parts.push(`${axisLabels[key] ?? key.replace(/_/g, ' ')}: ${fit(squash(value), opts.perAxis ?? 90)}`);
  }
  return parts.length ? fit(parts.join(' · '), opts.max) : undefined;
}
