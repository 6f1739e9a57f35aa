/**
 * Build-time only (used by build-model.ts): reads damaged seed text with a
 * model and returns the repaired characters, marking every restoration the
 * model is not sure of, as input for the domain counts (domain.ts).
 *
 * Telling them apart matters: counting every restored character would feed
 * the model's own mistakes back as evidence (a word it misreads everywhere,
 * such as 揭示 for 提示, would gain strong counts), while characters restored
 * with confidence elsewhere (提 in 提出, 提供, 提升) are exactly the evidence
 * wanted. A restoration is sure when, within a window of a word's length
 * either side, the best reading that puts another candidate in its slot scores
 * at least RELIABLE_MARGIN lower. An unsure one is shared among its candidates
 * in proportion to their general frequency — neutral evidence, so that
 * characters which are nearly always ambiguous (与 among 不/中) do not look
 * rare in the domain.
 */
import type { Position } from './domain.ts';
import { endsText, runContext, slotsFor } from './index.ts';
import { bestPath, REPLACEMENT, type RunContext } from './lattice.ts';
import type { WordModel } from './model.ts';
import { splitPieces } from './utf8.ts';

/** Log-score gap (nats) a restoration needs over its best alternative to be counted. */
export const RELIABLE_MARGIN = 3;
const WINDOW = 8;

/** Whether the choice at slot k beats every other candidate there by the margin, judged in a local window. */
function isReliable(
  slots: readonly (readonly string[])[],
  chosen: readonly string[],
  k: number,
  model: WordModel,
  context: RunContext,
): boolean {
  const others = (slots[k] ?? []).filter((ch) => ch !== chosen[k] && ch !== REPLACEMENT);
  if (others.length === 0) return true;
  const lo = Math.max(0, k - WINDOW);
  const hi = Math.min(slots.length, k + WINDOW + 1);
  // Run context applies only where the window reaches the run's ends.
  const windowContext = {
    afterLatin: lo === 0 && context.afterLatin,
    beforeLatin: hi === slots.length && context.beforeLatin,
  };
  const window = slots.slice(lo, hi);
  const best = bestPath(window, model, windowContext).score;
  const alternative = bestPath(
    window.map((slot, j) => (j === k - lo ? others : slot)),
    model,
    windowContext,
  ).score;
  return best - alternative >= RELIABLE_MARGIN;
}

/** The slot's candidates weighted by their general frequency. */
function neutralShares(slot: readonly string[], model: WordModel): [string, number][] {
  const weights = slot.map((ch) => [ch, Math.exp(model.charLogProbs.get(ch) ?? -Infinity)] as [string, number]);
  const sum = weights.reduce((total, [, weight]) => total + weight, 0);
  return sum > 0 ? weights.filter(([, weight]) => weight > 0).map(([ch, weight]) => [ch, weight / sum]) : [];
}

/** Positions of every mojibake run in the texts: the repaired character, or nothing where the repair is unsure. */
export function* trustedReadings(texts: readonly string[], model: WordModel): Generator<Position[]> {
  for (const text of texts) {
    const pieces = splitPieces(text);
    for (const [index, piece] of pieces.entries()) {
      if (piece.kind !== 'mojibake') continue;
      const next = pieces[index + 1];
      const slots = slotsFor(piece.units, {
        endsText: endsText(next),
        beforeReplacement: next?.kind === 'text' && next.text.startsWith(REPLACEMENT),
      });
      const context = runContext(pieces[index - 1], next);
      const { chars } = bestPath(slots, model, context);
      yield chars.map((ch, k): Position => {
        const slot = slots[k] ?? [];
        if (slot.length <= 1 || isReliable(slots, chars, k, model, context)) return { sure: true, ch };
        return { sure: false, shares: neutralShares(slot, model) };
      });
    }
  }
}
