/**
 * What a search did to the words typed, said above its results (pure): a word no paper has was
 * searched as its likely spelling, and the user may want the word as typed.
 */
import { untrustedText } from '../reply.ts';
import type { Correction } from '../ranking/typo.ts';

/** The query with its corrected words replaced, as typed otherwise. */
export function correctedQuery(query: string, corrections: readonly Correction[]): string {
  let out = query;
  for (const c of corrections) {
    const escaped = c.typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'), c.shown);
  }
  return out;
}

/**
 * "Showing results for *group sequence policy*. Search instead for "grup": put the word in quotes.";
 * undefined when nothing was corrected.
 */
export function correctionNotice(query: string, corrections: readonly Correction[]): string | undefined {
  if (corrections.length === 0) return undefined;
  const typed = [...new Set(corrections.map((c) => c.typed))];
  const asTyped = typed.map((w) => `"${w}"`).join(' ');
  return (
    `Showing results for **${untrustedText(correctedQuery(query, corrections))}** (no paper has ${untrustedText(
      typed.map((w) => `"${w}"`).join(' or '),
    )}). ` +
    `Search instead for ${untrustedText(asTyped)}: put ${typed.length > 1 ? 'the words' : 'the word'} in quotes.`
  );
}
