/**
 * Which papers a channel's digest carries: GRPO-family news since the last digest, in the
 * channel's topics (none configured = all), at or above its minimum score, ranked, capped. Pure.
 * The database query applies the same filters; they are repeated here so the composer is correct
 * on any candidate list (one shared list for many channels, a test's hand-made list).
 */
import { rankPapers } from './rank.ts';
import type { DigestChannel, DigestPaper } from './types.ts';

export interface Selection {
  /** The papers to post, best first, at most `maxPapers`. */
  shown: DigestPaper[];
  /** How many qualified before the cap. */
  total: number;
  /** Every paper that qualified, unranked (the weekly header picture counts them). */
  eligible: DigestPaper[];
}

export function matchesChannel(p: DigestPaper, channel: DigestChannel, since: Date | undefined): boolean {
  if (!p.grpoFamily || p.familyScore < channel.minScore) return false;
  if (since && p.newsAt.getTime() <= since.getTime()) return false;
  return channel.topics.length === 0 || p.topics.some((t) => channel.topics.includes(t));
}

export function selectPapers(
  papers: readonly DigestPaper[],
  channel: DigestChannel,
  since: Date | undefined,
  now: Date,
): Selection {
  const seen = new Set<number>();
  const eligible = papers.filter((p) => {
    if (seen.has(p.id) || !matchesChannel(p, channel, since)) return false;
    seen.add(p.id);
    return true;
  });
  const cap = Math.max(1, Math.floor(channel.maxPapers));
  return { shown: rankPapers(eligible, now).slice(0, cap), total: eligible.length, eligible };
}
