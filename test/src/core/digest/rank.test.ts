import { describe, expect, it } from 'vitest';
import { RANK_WEIGHTS, rankPapers, rankScore } from '../../../../src/core/digest/rank.ts';
import { NOW, paper } from './build.ts';

const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

describe('rankScore', () => {
  it('adds up the documented weights when every signal saturates', () => {
    const cited = (citationCount: number) => ({ citationCount, influentialCount: 0, fetchedAt: NOW });
    const full = rankScore(
      { familyScore: 1, hfUpvotes: 50, githubStars: 1000, citations: cited(200), votes: 10, newsAt: NOW },
      NOW,
    );
    expect(full).toBeCloseTo(Object.values(RANK_WEIGHTS).reduce((a, b) => a + b, 0));
    expect(
      rankScore(
        { familyScore: 1, hfUpvotes: 5000, githubStars: 10 ** 6, citations: cited(10 ** 5), votes: 99, newsAt: NOW },
        NOW,
      ),
    ).toBeCloseTo(full);
  });

  it('halves the recency term every 48 hours and treats missing signals as zero', () => {
    const base = { familyScore: 0, hfUpvotes: null, githubStars: null, votes: 0 };
    expect(rankScore({ ...base, newsAt: NOW }, NOW)).toBeCloseTo(RANK_WEIGHTS.recency);
    expect(rankScore({ ...base, newsAt: hoursAgo(48) }, NOW)).toBeCloseTo(RANK_WEIGHTS.recency / 2);
  });
});

describe('rankPapers', () => {
  it('weighs classifier confidence against upvotes and votes, and recency decides among equals', () => {
    const ranked = rankPapers(
      [
        paper(1, { familyScore: 0.5 }),
        paper(2, { familyScore: 0.9 }),
        paper(3, { familyScore: 0.5, hfUpvotes: 30 }),
        paper(4, { familyScore: 0.5, votes: 3 }),
        paper(5, { familyScore: 0.5, newsAt: hoursAgo(1) }),
      ],
      NOW,
    );
    expect(ranked.map((p) => p.id)).toEqual([3, 2, 4, 5, 1]);
  });

  it('lets server votes lift a borderline paper over a confident one nobody wants', () => {
    const ranked = rankPapers(
      [paper(1, { familyScore: 0.95 }), paper(2, { familyScore: 0.6, votes: 8, hfUpvotes: 10 })],
      NOW,
    );
    expect(ranked.map((p) => p.id)).toEqual([2, 1]);
  });

  it('breaks ties by newer first, then lower id, and leaves its input alone', () => {
    const input = [paper(3), paper(1), paper(2)];
    expect(rankPapers(input, NOW).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(input.map((p) => p.id)).toEqual([3, 1, 2]);
  });
});

describe('citations in the digest order', () => {
  const cited = (citationCount: number) => ({ citationCount, influentialCount: 0, fetchedAt: NOW });

  it('lift a paper over an equal one Semantic Scholar has no counts for', () => {
    const ranked = rankPapers([paper(1), paper(2, { citations: cited(40) })], NOW);
    expect(ranked.map((p) => p.id)).toEqual([2, 1]);
  });

  it('weigh less than GitHub stars at saturation, and never outweigh a clearly more confident paper', () => {
    expect(RANK_WEIGHTS.citations).toBeLessThan(RANK_WEIGHTS.stars);
    const ranked = rankPapers(
      [paper(1, { familyScore: 0.6, citations: cited(100_000) }), paper(2, { familyScore: 0.8 })],
      NOW,
    );
    expect(ranked.map((p) => p.id)).toEqual([2, 1]);
  });
});
