/**
 * Whether a paper matches a subscription. Pure.
 *
 * - keyword: a case- and accent-insensitive whole-word or whole-phrase match in the title or the
 *   abstract as the notice shows them (`readable`: not in a citation's key or a LaTeX command;
 *   `clip-higher` also matches "Clip Higher"); any of its exclusions (comma-separated words or
 *   phrases) found there suppresses the match.
 * - author: a normalised name match (accents, case, punctuation ignored; "Last, First" reordered;
 *   an initial matches any given name with that letter; two-part names also match reversed).
 * - topic and family: membership in the paper's topics or families (families case-insensitively).
 */

import { readable } from '../papers/latex.ts';

export type SubscriptionKind = 'topic' | 'keyword' | 'author' | 'family';
export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['topic', 'keyword', 'author', 'family'];

export interface SubscriptionRule {
  /** A SubscriptionKind; stored as text, so anything else simply matches nothing. */
  kind: string;
  value: string;
  exclude?: string | null;
}

export interface MatchablePaper {
  title: string;
  abstract: string;
  authors: readonly string[];
  topics: readonly string[];
  families: readonly string[];
}

/** Lower case, accents and other combining marks removed (`Müller` -> `muller`). */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regexp for a word or phrase, whole words only; spaces and hyphens inside it match either. */
function phraseRe(phrase: string): RegExp | undefined {
  const words = fold(phrase)
    .split(/[\s\-_]+/)
    .filter(Boolean);
  if (words.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escapeRe).join('[\\s\\-_]+')}(?![\\p{L}\\p{N}])`, 'u');
}

/** Whether `phrase` occurs in `text` as whole words (case- and accent-insensitive). */
export function containsPhrase(text: string, phrase: string): boolean {
  const re = phraseRe(phrase);
  return re !== undefined && re.test(fold(text));
}

/** The exclusions of a keyword subscription: comma-separated words or phrases. */
export function excludeTerms(exclude: string | null | undefined): string[] {
  return (exclude ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
}

export function keywordMatches(
  paper: Pick<MatchablePaper, 'title' | 'abstract'>,
  keyword: string,
  exclude?: string | null,
): boolean {
  const text = `${readable(paper.title)}\n${readable(paper.abstract)}`;
  if (!containsPhrase(text, keyword)) return false;
  return !excludeTerms(exclude).some((term) => containsPhrase(text, term));
}

/** A name as tokens: folded, "Last, First" reordered, punctuation dropped (`Shao, Z.` -> ['z', 'shao']). */
export function nameTokens(name: string): string[] {
  const comma = name.indexOf(',');
  const ordered = comma > 0 ? `${name.slice(comma + 1)} ${name.slice(0, comma)}` : name;
  return fold(ordered)
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
}

const givenCompatible = (a: string, b: string) => (a.length === 1 || b.length === 1 ? a[0] === b[0] : a === b);

/** Same surname, and the given names agree as far as both are known (initials match full names). */
function sameName(wanted: string[], author: string[]): boolean {
  if (wanted.length === 0 || author.length === 0) return false;
  if (wanted.at(-1) !== author.at(-1)) return false;
  const a = wanted.slice(0, -1);
  const b = author.slice(0, -1);
  if (a.length === 0) return true; // a surname alone follows everyone with that surname
  if (b.length === 0) return false;
  if (!givenCompatible(a[0]!, b[0]!)) return false;
  // Middle names: compared only where both give one at the same position.
  for (let i = 1; i < Math.min(a.length, b.length); i++) if (!givenCompatible(a[i]!, b[i]!)) return false;
  return true;
}

export function authorMatches(authors: readonly string[], name: string): boolean {
  const wanted = nameTokens(name);
  return authors.some((raw) => {
    const author = nameTokens(raw);
    if (sameName(wanted, author)) return true;
    // "Shao Zhihong" written family name first.
    return author.length === 2 && wanted.length === 2 && sameName(wanted, [...author].reverse());
  });
}

export function matches(paper: MatchablePaper, rule: SubscriptionRule): boolean {
  switch (rule.kind) {
    case 'topic':
      return paper.topics.includes(rule.value);
    case 'family':
      return paper.families.some((f) => f.toLowerCase() === rule.value.toLowerCase());
    case 'keyword':
      return keywordMatches(paper, rule.value, rule.exclude);
    case 'author':
      return authorMatches(paper.authors, rule.value);
    default:
      return false;
  }
}

/**
 * The rules that match a paper, counting only rules created before the paper became news: a new
 * subscription never pulls in papers announced before it.
 */
export function matchingRules<R extends SubscriptionRule & { createdAt: Date }>(
  paper: MatchablePaper & { newsAt: Date | null },
  rules: readonly R[],
): R[] {
  const newsAt = paper.newsAt;
  if (!newsAt) return [];
  return rules.filter((r) => newsAt.getTime() > r.createdAt.getTime() && matches(paper, r));
}
