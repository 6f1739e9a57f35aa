/**
 * The language model the repair uses to choose between candidate characters:
 * a class-based word bigram. A reading of a run is a sequence of dictionary
 * words, each with its part-of-speech tag; its score is
 *   sum of log P(tag | previous tag) + log P(word | tag),
 * with word counts from the jieba dictionary and tag transitions from jieba's
 * part-of-speech HMM (see build-model.ts). Characters that are no dictionary
 * word (punctuation, emoji, rare CJK) are "boundary" tokens scored by a prior
 * alone; after one, the next word is scored like the start of a sentence.
 * Domain terms learnt from the seeds are added per character and per pair of
 * adjacent characters (domain.ts).
 *
 * All scores are natural logs.
 */
import { readFileSync } from 'node:fs';
import { MODEL_URL } from '../../src/services/package-files.ts';
import { charShift, pairBonus, readDomainLine, type DomainModel } from './domain.ts';
import { symbolPrior } from './symbols.ts';

export interface WordEntry {
  /** Tagger state the word occupies (tag x single/multi-character). */
  state: number;
  /** log P(word | state). */
  score: number;
}

export interface WordModel {
  words: Map<string, WordEntry>;
  /** Every proper prefix of a dictionary word with two or more characters. */
  prefixes: Set<string>;
  /** Unconditional log P of characters that occur inside words but are no word by themselves. */
  boundChars: Map<string, number>;
  /** Longest word, in UTF-16 code units. */
  maxLength: number;
  /** Number of states; the last one is the boundary state (text start, punctuation, unknown characters). */
  states: number;
  /** log P(to | from) at index from * states + to. */
  transitions: Float64Array;
  /** log P of each character in general text (its share of the dictionary's character mass). */
  charLogProbs: Map<string, number>;
  /** Character-bigram statistics of the domain (domain.ts); empty when the file has none. */
  domain: DomainModel;
  /** State standing for a Latin-script word next to a run (tag nz, multi-character), or the boundary state. */
  latinState: number;
  /** States of verbs, adjectives and adverbs (tags v*, a*, d*): what 不 can negate (context.ts). */
  predicateStates: ReadonlySet<number>;
  /** Part-of-speech tag of each state (the boundary state has none). */
  stateTags: readonly string[];
}

/** The word's part-of-speech tag in the dictionary, if it is a word. */
export function tagOf(model: WordModel, word: string): string | undefined {
  const entry = model.words.get(word);
  return entry === undefined ? undefined : model.stateTags[entry.state];
}

/** Whether the word is in the dictionary as a verb, adjective or adverb. */
export function isPredicate(model: WordModel, word: string): boolean {
  const entry = model.words.get(word);
  return entry !== undefined && model.predicateStates.has(entry.state);
}

/** Tag given to a Latin-script word (GRPO, str) right next to a run: like jieba's "other proper noun". */
const LATIN_TAG = 'nz';

/** Transition score for tag pairs the HMM never saw (or that build-model pruned). */
const UNSEEN_TRANSITION = -16;

/**
 * Parses the model file (format written by build-model.ts): `#` comments,
 * `@ FROM TO logp` transitions, `word count tag` entries, and the domain
 * counts `= char count` / `~ pair count`.
 */
export function parseModel(text: string): WordModel {
  const tagIndex = new Map<string, number>();
  const tagOf = (tag: string): number => {
    let index = tagIndex.get(tag);
    if (index === undefined) tagIndex.set(tag, (index = tagIndex.size));
    return index;
  };
  // Tagger state of a word: even = multi-character (B.../E...), odd = single character (S).
  const stateOf = (tag: string, single: boolean): number => 2 * tagOf(tag) + (single ? 1 : 0);

  const rawTransitions: [string, string, number][] = [];
  const entries: [string, number, number][] = [];
  const domain: DomainModel = { unigrams: new Map(), bigrams: new Map(), total: 0 };
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || readDomainLine(domain, line)) continue;
    const parts = line.split(' ');
    if (parts[0] === '@') {
      const [, from = '', to = '', value = ''] = parts;
      rawTransitions.push([from, to, Number(value)]);
      continue;
    }
    const [word = '', countText = '', tag = 'x'] = parts;
    const count = Number(countText);
    if (word === '' || !(count > 0)) continue;
    entries.push([word, count, stateOf(tag, Array.from(word).length === 1)]);
  }

  const stateFromLabel = (label: string): number => {
    const [position = '', tag = ''] = label.split(',');
    return stateOf(tag, position === 'S');
  };
  for (const [from, to] of rawTransitions) {
    if (from !== '^') stateFromLabel(from);
    stateFromLabel(to);
  }
  const states = 2 * tagIndex.size + 1;
  const boundary = states - 1;
  const transitions = new Float64Array(states * states).fill(UNSEEN_TRANSITION);
  for (let from = 0; from < states; from++) transitions[from * states + boundary] = 0;
  for (const [from, to, value] of rawTransitions) {
    const fromState = from === '^' ? boundary : stateFromLabel(from);
    transitions[fromState * states + stateFromLabel(to)] = value;
  }

  const stateTotals = new Float64Array(states);
  let total = 0;
  for (const [, count, state] of entries) {
    stateTotals[state] = (stateTotals[state] ?? 0) + count;
    total += count;
  }
  const words = new Map<string, WordEntry>();
  const prefixes = new Set<string>();
  const inside = new Map<string, number>();
  const mass = new Map<string, number>();
  let charTotal = 0;
  let maxLength = 1;
  for (const [word, count, state] of entries) {
    words.set(word, { state, score: Math.log(count / (stateTotals[state] ?? count)) });
    const chars = Array.from(word);
    for (const ch of chars) mass.set(ch, (mass.get(ch) ?? 0) + count);
    charTotal += count * chars.length;
    if (chars.length < 2) continue;
    maxLength = Math.max(maxLength, word.length);
    let prefix = '';
    for (const ch of chars.slice(0, -1)) prefixes.add((prefix += ch));
    for (const ch of chars) inside.set(ch, (inside.get(ch) ?? 0) + count);
  }
  // A character seen only inside words is a poor word on its own: a tenth of its mass.
  const boundChars = new Map<string, number>();
  for (const [ch, count] of inside) if (!words.has(ch)) boundChars.set(ch, Math.log(count / 10 / total));
  const charLogProbs = new Map<string, number>();
  for (const [ch, count] of mass) charLogProbs.set(ch, Math.log(count / charTotal));
  const latinState = tagIndex.has(LATIN_TAG) ? stateOf(LATIN_TAG, false) : boundary;
  const predicateStates = new Set<number>();
  const stateTags: string[] = [];
  for (const [tag, index] of tagIndex) stateTags[2 * index] = stateTags[2 * index + 1] = tag;
  for (const [tag, index] of tagIndex)
    if (/^[vad]/.test(tag)) [2 * index, 2 * index + 1].forEach((state) => predicateStates.add(state));
  return {
    words,
    prefixes,
    boundChars,
    maxLength,
    states,
    transitions,
    charLogProbs,
    domain,
    latinState,
    predicateStates,
    stateTags,
  };
}

let bundled: WordModel | undefined;

/** The bundled model, read on first use. */
export function bundledModel(): WordModel {
  bundled ??= parseModel(readFileSync(MODEL_URL, 'utf8'));
  return bundled;
}

/** General-text log P of a character outside the dictionary. */
const UNSEEN_CHAR_LOG_PROB = Math.log(1e-8);

const generalLogProb = (model: WordModel, c: string): number => model.charLogProbs.get(c) ?? UNSEEN_CHAR_LOG_PROB;

/** Domain term of one character (domain.ts). */
export function domainCharScore(model: WordModel, c: string): number {
  return charShift(model.domain, c, generalLogProb(model, c));
}

/** Domain term for character c right after q (domain.ts). */
export function adjacencyScore(model: WordModel, q: string, c: string): number {
  return pairBonus(model.domain, q, c, generalLogProb(model, c));
}

/** Score of a character that is no dictionary word, as a boundary token. */
export function boundaryScore(model: WordModel, ch: string): number {
  return model.boundChars.get(ch) ?? symbolPrior(ch);
}
