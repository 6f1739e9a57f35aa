/**
 * Misspelled query words (pure): a word no indexed paper has is replaced by the closest index term
 * with the same first letter, within one edit for words of 4-6 letters and two from 7 (adjacent
 * transpositions count as one), preferring the term more papers have.
 */
import { editDistance } from '../edit-distance.ts';

/** A word of a query searched as another: the word as typed (lowercase) and the word searched instead. */
export interface Correction {
  typed: string;
  shown: string;
}

export function correction(
  word: string,
  vocabulary: readonly string[],
  df: (term: string) => number,
): string | undefined {
  const max = word.length >= 7 ? 2 : word.length >= 4 ? 1 : 0;
  if (max === 0 || /\d|\s/.test(word)) return undefined;
  let best: { term: string; dist: number; df: number } | undefined;
  for (const t of vocabulary) {
    if (Math.abs(t.length - word.length) > max || t === word) continue;
    const dist = editDistance(word, t, max);
    if (dist > max) continue;
    const n = df(t);
    if (n === 0) continue;
    if (!best || dist < best.dist || (dist === best.dist && n > best.df)) best = { term: t, dist, df: n };
  }
  return best?.term;
}
