/**
 * Choosing one character per slot so the whole run reads best: a Viterbi
 * search over the word lattice, where a damaged slot may be filled by any of
 * its candidates. A path is scored by the class bigram of model.ts plus the
 * domain term for every pair of adjacent characters (domain.ts). Each slot is
 * covered by exactly one word of a path, so the word fixes the slot's choice;
 * the search state is (tagger state, last character), which makes it exact.
 */
import { adjacencyScore, boundaryScore, domainCharScore, type WordModel } from './model.ts';

/** Marks a slot as cut off / unrestorable. */
export const REPLACEMENT = '\uFFFD';

/**
 * Score of giving up on a slot that may be a cut-off character (a boundary
 * token). A candidate wins only if it is a plausible word there.
 */
export const REPLACEMENT_SCORE = -12;

const CODE_POINTS = 0x110000;

interface Step {
  from: number;
  /** Search state before the word. */
  prevKey: number;
  chars: string[];
}

/** Search state: tagger state and the code point of the last character (0 at the start). */
const keyOf = (state: number, ch: string): number => state * CODE_POINTS + (ch.codePointAt(0) ?? 0);

/** What surrounds a run: a Latin-script word right before / after it reads like a noun there. */
export interface RunContext {
  afterLatin?: boolean;
  beforeLatin?: boolean;
}

/** Picks one candidate per slot (slots must be non-empty); also returns the path's score. */
export function bestPath(
  slots: readonly (readonly string[])[],
  model: WordModel,
  context: RunContext = {},
): { chars: string[]; score: number } {
  const n = slots.length;
  const { states, transitions, words, prefixes } = model;
  const boundary = states - 1;
  // best[i]: search state after slots 0..i-1 -> best score; back[i]: how it was reached.
  const best = Array.from({ length: n + 1 }, () => new Map<number, number>());
  const back = Array.from({ length: n + 1 }, () => new Map<number, Step>());
  best[0]?.set((context.afterLatin ? model.latinState : boundary) * CODE_POINTS, 0);

  for (let i = 0; i < n; i++) {
    const here = best[i];
    if (here === undefined || here.size === 0) continue;
    // Best way to start a word in tagger state `state` with character `first` at slot i.
    const entries = new Map<number, { score: number; prevKey: number }>();
    const enter = (state: number, first: string): { score: number; prevKey: number } => {
      const entryKey = keyOf(state, first);
      let entry = entries.get(entryKey);
      if (entry === undefined) {
        entry = { score: -Infinity, prevKey: 0 };
        for (const [key, score] of here) {
          const prevState = Math.floor(key / CODE_POINTS);
          const prevCode = key % CODE_POINTS;
          let total = score + (transitions[prevState * states + state] ?? -Infinity);
          if (prevCode !== 0) total += adjacencyScore(model, String.fromCodePoint(prevCode), first);
          if (total > entry.score) entry = { score: total, prevKey: key };
        }
        entries.set(entryKey, entry);
      }
      return entry;
    };
    const relax = (chars: string[], state: number, emission: number): void => {
      const first = chars[0] ?? '';
      const entry = enter(state, first);
      let total = entry.score + emission;
      chars.forEach((ch, k) => {
        total += domainCharScore(model, ch);
        if (k > 0) total += adjacencyScore(model, chars[k - 1] ?? '', ch);
      });
      const to = i + chars.length;
      const key = keyOf(state, chars[chars.length - 1] ?? '');
      const target = best[to];
      if (target !== undefined && total > (target.get(key) ?? -Infinity)) {
        target.set(key, total);
        back[to]?.set(key, { from: i, prevKey: entry.prevKey, chars });
      }
    };
    // Multi-character words starting at i whose characters are candidates of their slots.
    const extend = (at: number, word: string, chars: string[]): void => {
      for (const ch of slots[at] ?? []) {
        const next = word + ch;
        if (next.length > model.maxLength) continue;
        const entry = words.get(next);
        if (entry !== undefined) relax([...chars, ch], entry.state, entry.score);
        if (at + 1 < n && prefixes.has(next)) extend(at + 1, next, [...chars, ch]);
      }
    };
    for (const ch of slots[i] ?? []) {
      const entry = words.get(ch);
      if (ch === REPLACEMENT) relax([ch], boundary, REPLACEMENT_SCORE);
      else if (entry !== undefined) relax([ch], entry.state, entry.score);
      else relax([ch], boundary, boundaryScore(model, ch));
      if (i + 1 < n && prefixes.has(ch)) extend(i + 1, ch, [ch]);
    }
  }

  let key = 0;
  let bestEnd = -Infinity;
  for (const [k, score] of best[n] ?? []) {
    const last = Math.floor(k / CODE_POINTS);
    const total = score + (context.beforeLatin ? (transitions[last * states + model.latinState] ?? 0) : 0);
    if (total > bestEnd) [key, bestEnd] = [k, total];
  }
  const out = new Array<string>(n);
  for (let at = n; at > 0;) {
    const step = back[at]?.get(key);
    if (step === undefined) throw new Error('lattice: no path (empty slot?)');
    step.chars.forEach((ch, k) => (out[step.from + k] = ch));
    at = step.from;
    key = step.prevKey;
  }
  return { chars: out, score: bestEnd };
}
