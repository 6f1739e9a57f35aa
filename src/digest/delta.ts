/**
 * The GRPO delta in one line: only the axes a paper changes, in a fixed order, e.g.
 * "clipping: changed: decoupled ε_low/ε_high · KL: removed". Pure.
 */
import { fit, squash } from './text.ts';

/** The summariser's axes, in the order a reader of GRPO papers scans them. */
export const DELTA_AXES = [
  'advantage_normalization', 'clipping', 'kl_term', 'loss_aggregation', 'importance_sampling', 'sampling_filtering', 'reward_type',
] as const;

/** Values that mean "same as GRPO" (English and Chinese, with or without a trailing stop or explanation). */
const UNCHANGED = /^(unchanged|same|same as grpo|as in grpo|no change|none|n\/a|na|not applicable|not specified|unspecified|-|—|不变|无变化|未改变|与 ?grpo ?相同|同 ?grpo|未说明)(?:[.。;；,，:：]|$)/i;

export function isUnchanged(value: string): boolean {
  return squash(value) === '' || UNCHANGED.test(squash(value));
}

/**
 * "axis: value · axis: value" for the changed axes, labels from `axisLabels`; each value at most
 * `perAxis` characters and the line at most `max`. Undefined when nothing changed.
 */
export function compactDelta(delta: Record<string, string> | undefined, axisLabels: Record<string, string>, opts: { max: number; perAxis?: number }): string | undefined {
  if (!delta) return undefined;
  const known: readonly string[] = DELTA_AXES;
  const keys = [...DELTA_AXES.filter((k) => k in delta), ...Object.keys(delta).filter((k) => !known.includes(k)).sort()];
  const parts: string[] = [];
  for (const key of keys) {
    const value = delta[key];
    if (typeof value !== 'string' || isUnchanged(value)) continue;
    parts.push(`${axisLabels[key] ?? key.replace(/_/g, ' ')}: ${fit(squash(value), opts.perAxis ?? 90)}`);
  }
  return parts.length ? fit(parts.join(' · '), opts.max) : undefined;
}
