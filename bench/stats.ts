/** Small helpers for timings and tables. */
import { performance } from 'node:perf_hooks';

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

/** Percentile by linear interpolation between closest ranks (what numpy calls 'linear'). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 0.5)), p95: round(percentile(s, 0.95)), max: round(s.at(-1) ?? NaN) };
}

export const median = (xs: number[]): number =>
  round(
    percentile(
      [...xs].sort((a, b) => a - b),
      0.5,
    ),
  );

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Runs fn and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** A plain-text table with right-aligned numbers, for the terminal and for pasting into Markdown. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...cells.slice(1).map(line)].join('\n');
}
