/**
 * How a digest orders its papers. Pure and deterministic: the same papers and `now` always give
 * the same order, so a re-composed digest (after a crash) posts the same messages.
 *
 * score = classifier · familyScore                      (0..1, the rules' confidence it is GRPO-family)
 *       + upvotes    · saturate(hfUpvotes, 50)           (community attention on Hugging Face)
 *       + stars      · saturate(githubStars, 1000)       (released code people use)
 *       + citations  · saturate(S2 citationCount, 200)   (cited by later work; small: new papers have none yet)
 *       + votes      · saturate(server votes, 10)        (this server's reading-group interest)
 *       + recency    · 2^(-age / 48 h)                   (fresher first among equals)
 * saturate(x, k) = log(1 + x) / log(1 + k), capped at 1: the first upvotes matter most, and no
 * single signal can outweigh the classifier once it saturates. Ties: newer first, then lower id.
 */
import type { DigestPaper } from './types.ts';

export const RANK_WEIGHTS = { classifier: 3, upvotes: 2, stars: 1, citations: 0.5, votes: 2, recency: 1 } as const;
export const RANK_SCALES = { upvotes: 50, stars: 1000, citations: 200, votes: 10, recencyHalfLifeHours: 48 } as const;

const HOUR_MS = 3_600_000;

function saturate(x: number | null, k: number): number {
  if (!x || x <= 0) return 0;
  return Math.min(1, Math.log1p(x) / Math.log1p(k));
}

export type RankSignals = Pick<DigestPaper, 'familyScore' | 'hfUpvotes' | 'githubStars' | 'votes' | 'newsAt'> &
  Partial<Pick<DigestPaper, 'citations'>>;

/** A paper's ranking score at `now` (higher ranks first). */
export function rankScore(p: RankSignals, now: Date): number {
  const ageHours = Math.max(0, (now.getTime() - p.newsAt.getTime()) / HOUR_MS);
  return (
    RANK_WEIGHTS.classifier * Math.min(1, Math.max(0, p.familyScore)) +
    RANK_WEIGHTS.upvotes * saturate(p.hfUpvotes, RANK_SCALES.upvotes) +
    RANK_WEIGHTS.stars * saturate(p.githubStars, RANK_SCALES.stars) +
    RANK_WEIGHTS.citations * saturate(p.citations?.citationCount ?? null, RANK_SCALES.citations) +
    RANK_WEIGHTS.votes * saturate(p.votes, RANK_SCALES.votes) +
    RANK_WEIGHTS.recency * 2 ** (-ageHours / RANK_SCALES.recencyHalfLifeHours)
  );
}

/** The papers best first; the input is not modified. */
export function rankPapers<T extends RankSignals & { id: number }>(papers: readonly T[], now: Date): T[] {
  return papers
    .map((p) => ({ p, s: rankScore(p, now) }))
    .sort((a, b) => b.s - a.s || b.p.newsAt.getTime() - a.p.newsAt.getTime() || a.p.id - b.p.id)
    .map((x) => x.p);
}
