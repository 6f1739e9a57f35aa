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

/** Per-slot score added to a candidate by its context (context.ts): bonus[slot]?.get(ch). */
export type SlotBonus = readonly (ReadonlyMap<string, number> | undefined)[];

export interface PathOptions {
  /** Context evidence per slot and candidate, added to every reading that puts the candidate there. */
  bonus?: SlotBonus;
  /** Also compute, per slot, how much better the best reading is than the best one with another character there. */
  margins?: boolean;
}

/** A word placed at a slot: its characters, tagger state and its score apart from the way into it. */
interface Edge {
  chars: string[];
  state: number;
  local: number;
}

/**
 * Picks one candidate per slot (slots must be non-empty); also returns the path's score and, with
 * `margins`, each slot's margin: best score minus the best score of a reading with another character
 * in that slot (Infinity when the slot has one candidate). The margins come from a backward pass over
 * the same lattice (max-marginals), so they cost about one more search, not one per slot.
 */
export function bestPath(
  slots: readonly (readonly string[])[],
  model: WordModel,
  context: RunContext = {},
  options: PathOptions = {},
): { chars: string[]; score: number; margins?: number[] } {
  const n = slots.length;
  const { states, transitions, words, prefixes } = model;
  const boundary = states - 1;
  const bonus = options.bonus ?? [];
  // best[i]: search state after slots 0..i-1 -> best score; back[i]: how it was reached.
  const best = Array.from({ length: n + 1 }, () => new Map<number, number>());
  const back = Array.from({ length: n + 1 }, () => new Map<number, Step>());
  // Words starting at each slot, grouped by the way into them (tagger state, first character).
  const edgesAt = Array.from({ length: n }, () => new Map<number, Edge[]>());
  const entryScores = Array.from({ length: n }, () => new Map<number, number>());
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
        entryScores[i]?.set(entryKey, entry.score);
      }
      return entry;
    };
    const relax = (chars: string[], state: number, emission: number): void => {
      const first = chars[0] ?? '';
      const entry = enter(state, first);
      let local = emission;
      chars.forEach((ch, k) => {
        local += domainCharScore(model, ch) + (bonus[i + k]?.get(ch) ?? 0);
        if (k > 0) local += adjacencyScore(model, chars[k - 1] ?? '', ch);
      });
      if (options.margins) {
        const group = edgesAt[i];
        const entryKey = keyOf(state, first);
        const list = group?.get(entryKey);
        if (list === undefined) group?.set(entryKey, [{ chars, state, local }]);
        else list.push({ chars, state, local });
      }
      const total = entry.score + local;
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

  const endScore = (k: number): number =>
    context.beforeLatin ? (transitions[Math.floor(k / CODE_POINTS) * states + model.latinState] ?? 0) : 0;
  let key = 0;
  let bestEnd = -Infinity;
  for (const [k, score] of best[n] ?? []) {
    const total = score + endScore(k);
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
  if (!options.margins) return { chars: out, score: bestEnd };
  return { chars: out, score: bestEnd, margins: slotMargins() };

  /** Max-marginals: per slot, the best total of a reading with each character there; margin = best - runner-up. */
  function slotMargins(): number[] {
    // after[j]: search state at j -> best score of finishing the run from there.
    const after = Array.from({ length: n + 1 }, () => new Map<number, number>());
    for (const k of best[n]?.keys() ?? []) after[n]?.set(k, endScore(k));
    const perSlot = Array.from({ length: n }, () => new Map<string, number>());
    for (let j = n - 1; j >= 0; j--) {
      // Per way in (state, first char): the best edge's score from its start to the end of the run.
      const groupBest = new Map<number, number>();
      for (const [entryKey, list] of edgesAt[j] ?? []) {
        let top = -Infinity;
        const into = entryScores[j]?.get(entryKey) ?? -Infinity;
        for (const edge of list) {
          const rest = after[j + edge.chars.length]?.get(keyOf(edge.state, edge.chars[edge.chars.length - 1] ?? ''));
          if (rest === undefined) continue;
          const tail = edge.local + rest;
          if (tail > top) top = tail;
          const through = into + tail;
          edge.chars.forEach((ch, k) => {
            const slot = perSlot[j + k];
            if (slot !== undefined && through > (slot.get(ch) ?? -Infinity)) slot.set(ch, through);
          });
        }
        if (top > -Infinity) groupBest.set(entryKey, top);
      }
      const target = after[j];
      for (const k of best[j]?.keys() ?? []) {
        const prevState = Math.floor(k / CODE_POINTS);
        const prevCode = k % CODE_POINTS;
        let value = -Infinity;
        for (const [entryKey, tail] of groupBest) {
          const state = Math.floor(entryKey / CODE_POINTS);
          let total = (transitions[prevState * states + state] ?? -Infinity) + tail;
          if (prevCode !== 0)
            total += adjacencyScore(
              model,
              String.fromCodePoint(prevCode),
              String.fromCodePoint(entryKey % CODE_POINTS),
            );
          if (total > value) value = total;
        }
        if (value > -Infinity) target?.set(k, value);
      }
    }
    return perSlot.map((scores, k) => {
      const chosen = scores.get(out[k] ?? '') ?? bestEnd;
      let runnerUp = -Infinity;
      for (const [ch, score] of scores) if (ch !== out[k] && score > runnerUp) runnerUp = score;
      return chosen - runnerUp;
    });
  }
}
