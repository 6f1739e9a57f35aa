/**
 * `/paper random`: a paper worth reading, drawn at random but weighted toward the ones readers
 * got most from. Pure: the random source is passed in, so a draw is reproducible in tests.
 */

export interface PickSignals {
  familyScore: number | null;
  hfUpvotes: number | null;
  /** A human-written note exists (the seed corpus's structured Chinese notes). */
  hasNote: boolean;
  /** Semantic Scholar's citation count, when a refresh found the paper. */
  citationCount?: number | null;
}

/** The most citations can add to a weight: as much as ~8 HF upvotes, less than a note. */
export const CITATION_WEIGHT_CAP = 1;

/**
 * A paper's weight: 1 for being GRPO-family, up to 2 more for the classifier's confidence, about
 * 1 more per doubling of Hugging Face upvotes (log-scaled, so one viral paper does not win every
 * draw), 1.5 for having a note, and a light citation signal: log2(1 + citations) / 8, at most 1
 * (255 citations reach it), so a classic is a little likelier without crowding out new work.
 * The best papers are ~5-9x as likely as the least.
 */
export function readingWeight(p: PickSignals): number {
  const score = Math.min(Math.max(p.familyScore ?? 0, 0), 1);
  const upvotes = Math.max(p.hfUpvotes ?? 0, 0);
  const cited = Math.min(CITATION_WEIGHT_CAP, Math.log2(1 + Math.max(p.citationCount ?? 0, 0)) / 8);
  return 1 + 2 * score + Math.log2(1 + upvotes) / 2 + (p.hasNote ? 1.5 : 0) + cited;
}

/** Draws one item with probability proportional to its weight; `random` returns [0, 1). Undefined when empty. */
export function weightedPick<T>(items: readonly T[], weight: (item: T) => number, random: () => number): T | undefined {
  const weights = items.map((i) => Math.max(weight(i), 0));
  const total = weights.reduce((a, b) => a + b, 0);
  if (items.length === 0 || total <= 0) return undefined;
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i];
  }
  return items[items.length - 1];
}
