import { describe, expect, it } from 'vitest';
import {
  authorMatches,
  excludeTerms,
  keywordMatches,
  matches,
  matchingRules,
  type MatchablePaper,
} from '../../../../src/core/subscriptions/match.ts';
import { planNotifications, notificationNonce } from '../../../../src/core/subscriptions/plan.ts';
import { FAMILY_NAMES, normalizeValue, parseSubscriptionLabel } from '../../../../src/core/subscriptions/values.ts';

const paper = (over: Partial<MatchablePaper> = {}): MatchablePaper => ({
  title: 'DAPO: Decoupled Clip and Dynamic Sampling at Scale',
  abstract: 'We raise the upper clipping bound (Clip-Higher) and filter zero-variance groups for math reasoning.',
  authors: ['Qiying Yu', 'Zheng Zhang', 'José Müller-Lüdenscheidt', 'Zhihong Shao'],
  topics: ['algorithm', 'math-code'],
  families: ['DAPO', 'GRPO'],
  ...over,
});

describe('keyword matching', () => {
  it('matches whole words and phrases, case-insensitively, in the title or abstract', () => {
    expect(keywordMatches(paper(), 'clip-higher')).toBe(true);
    expect(keywordMatches(paper(), 'CLIP HIGHER')).toBe(true);
    expect(keywordMatches(paper(), 'dynamic sampling')).toBe(true);
    expect(keywordMatches(paper(), 'math')).toBe(true);
    expect(keywordMatches(paper(), 'mat')).toBe(false); // not part of a word
    expect(keywordMatches(paper(), 'sampling at')).toBe(true);
    expect(keywordMatches(paper(), 'clip lower')).toBe(false);
  });

  it('is suppressed by any of its exclusions', () => {
    expect(keywordMatches(paper(), 'clipping', 'diffusion, image')).toBe(true);
    expect(keywordMatches(paper(), 'clipping', 'diffusion, math reasoning')).toBe(false);
    expect(keywordMatches(paper(), 'clipping', 'Math')).toBe(false);
    expect(excludeTerms(' a ,  b  c ,, ')).toEqual(['a', 'b c']);
  });

  it('matches the text the notice shows, not a citation key or a LaTeX command', () => {
    const cited = paper({ abstract: 'We build on GRPO~\\cite{shao2024deepseekmath} with \\textbf{clip-higher}.' });
    expect(keywordMatches(cited, 'DeepSeekMath')).toBe(false);
    expect(keywordMatches(cited, 'textbf')).toBe(false);
    expect(keywordMatches(cited, 'clip-higher')).toBe(true);
  });

  it('treats regexp characters in keywords literally', () => {
    expect(keywordMatches(paper({ title: 'REINFORCE++ revisited' }), 'reinforce')).toBe(true);
    expect(keywordMatches(paper({ title: 'A (b) c' }), 'a (b')).toBe(true);
    expect(keywordMatches(paper(), '.*')).toBe(false);
  });
});

describe('author matching', () => {
  it('forgives case, accents, initials, punctuation and "Last, First"', () => {
    const authors = paper().authors;
    expect(authorMatches(authors, 'zhihong shao')).toBe(true);
    expect(authorMatches(authors, 'Z. Shao')).toBe(true);
    expect(authorMatches(authors, 'Shao, Zhihong')).toBe(true);
    expect(authorMatches(authors, 'Jose Muller-Ludenscheidt')).toBe(true);
    expect(authorMatches(authors, 'J. Müller-Lüdenscheidt')).toBe(true);
    expect(authorMatches(authors, 'Shao Zhihong')).toBe(true); // family name first
    expect(authorMatches(['Z. Shao'], 'Zhihong Shao')).toBe(true);
  });

  it('does not match another person with the same surname or a part of a name', () => {
    const authors = paper().authors;
    expect(authorMatches(authors, 'Yang Shao')).toBe(false);
    expect(authorMatches(authors, 'Y. Shao')).toBe(false);
    expect(authorMatches(authors, 'Zhihong Sha')).toBe(false);
    expect(authorMatches(authors, 'Qiying')).toBe(false);
  });
});

describe('topic and family matching', () => {
  it("is membership in the paper's topics and families", () => {
    expect(matches(paper(), { kind: 'topic', value: 'math-code' })).toBe(true);
    expect(matches(paper(), { kind: 'topic', value: 'multimodal' })).toBe(false);
    expect(matches(paper(), { kind: 'family', value: 'DAPO' })).toBe(true);
    expect(matches(paper(), { kind: 'family', value: 'GSPO' })).toBe(false);
    expect(matches(paper(), { kind: 'unknown', value: 'DAPO' })).toBe(false);
  });

  it('counts only subscriptions made before the paper became news', () => {
    const p = { ...paper(), newsAt: new Date('2026-11-20T06:20:00Z') };
    const before = { kind: 'family', value: 'DAPO', createdAt: new Date('2026-11-19T00:00:00Z') };
    const after = { kind: 'topic', value: 'algorithm', createdAt: new Date('2026-11-21T00:00:00Z') };
    expect(matchingRules(p, [before, after])).toEqual([before]);
    expect(matchingRules({ ...p, newsAt: null }, [before])).toEqual([]);
  });
});

describe('subscription values', () => {
  it('normalises and checks what users type', () => {
    expect(normalizeValue('topic', ' Math-Code ')).toBe('math-code');
    expect(() => normalizeValue('topic', 'cooking')).toThrow(/not a topic/);
    expect(normalizeValue('family', 'dr grpo')).toBe('Dr. GRPO');
    expect(normalizeValue('family', 'dapo')).toBe('DAPO');
    expect(() => normalizeValue('family', 'XYZPO')).toThrow(/not a GRPO-family name/);
    expect(normalizeValue('keyword', '  Clip   Higher ')).toBe('clip higher');
    expect(() => normalizeValue('keyword', '-')).toThrow(/two letters/);
    expect(normalizeValue('author', ' Zhihong  Shao ')).toBe('Zhihong Shao');
    expect(FAMILY_NAMES.length).toBeLessThanOrEqual(25);
    expect(FAMILY_NAMES).toContain('GSPO');
  });

  it('parses `kind:value` labels', () => {
    expect(parseSubscriptionLabel('keyword:clip-higher')).toEqual({ kind: 'keyword', value: 'clip-higher' });
    expect(parseSubscriptionLabel('family:Dr. GRPO')).toEqual({ kind: 'family', value: 'Dr. GRPO' });
    expect(parseSubscriptionLabel('clip-higher')).toBeUndefined();
    expect(parseSubscriptionLabel('colour:red')).toBeUndefined();
  });
});

describe('planning notifications', () => {
  it('gives the first papers up to the cap their own message and bundles the rest under one nonce', () => {
    const plan = planNotifications('u1', [5, 4, 3, 2, 1], 2);
    expect(plan.filter((p) => !p.bundled).map((p) => p.paperId)).toEqual([5, 4]);
    const bundled = plan.filter((p) => p.bundled);
    expect(bundled.map((p) => p.paperId)).toEqual([3, 2, 1]);
    expect(new Set(bundled.map((p) => p.nonce)).size).toBe(1);
    expect(new Set(plan.map((p) => p.nonce)).size).toBe(3);
    expect(plan.every((p) => p.nonce.length <= 25)).toBe(true);
    expect(planNotifications('u1', [1, 2], -3).every((p) => p.bundled)).toBe(true);
    expect(notificationNonce('u1', [1], false)).toBe(notificationNonce('u1', [1], false));
    expect(notificationNonce('u1', [1], false)).not.toBe(notificationNonce('u2', [1], false));
  });
});
