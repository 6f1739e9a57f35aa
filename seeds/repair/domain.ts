/**
 * Domain adaptation: character statistics of the subject matter (papers on RL
 * for LLMs), counted from the seed notes as repaired by the model itself,
 * keeping only confident restorations (self-training; see self-train.ts).
 *
 * A jieba-style dictionary knows words but not which neighbours a word keeps
 * (过程中 vs 过程不) nor which of two near-equally common words this field uses
 * (提示 "prompt" vs 揭示 "reveal", jieba counts 989 vs 1015). Two terms are
 * added to a reading's score:
 * - per character that can lose a byte, how much more common it is in the
 *   domain than in general Chinese (charShift);
 * - per pair of adjacent characters, a bonus when the domain shows the pair
 *   more often than chance (pairBonus); never a penalty, since the pair
 *   counts leave out every uncertain restoration.
 * Only pairs involving a character that can lose a byte matter (all other
 * pairs are the same in every reading), so only those are stored.
 */
import { canLoseByte } from './utf8.ts';

export interface DomainModel {
  /** Character counts in the domain text. */
  unigrams: Map<string, number>;
  /** Counts of adjacent pairs, keyed by the two characters concatenated. */
  bigrams: Map<string, number>;
  total: number;
}

/** Share of P_general(c) mixed into P_domain(c), so characters unseen in the domain are not ruled out. */
const UNIGRAM_MIX = 0.3;
/** Absolute discount on pair counts: a pair seen once (possibly a misreading) earns nothing. */
const PAIR_DISCOUNT = 1;

const HAN = /^\p{Script=Han}$/u;

/**
 * One position of a text: the character read there, or (when the reading is
 * uncertain) the characters it may hold with weights summing to 1.
 */
export type Position = { sure: true; ch: string } | { sure: false; shares: readonly (readonly [string, number])[] };

/**
 * Counts Chinese characters and adjacent pairs of them, keeping the pairs that
 * can matter. Each sequence is a stretch of text. An uncertain position adds
 * its shares to the character counts but takes part in no pair.
 */
export function countDomain(sequences: Iterable<readonly Position[]>): DomainModel {
  const unigrams = new Map<string, number>();
  const bigrams = new Map<string, number>();
  let total = 0;
  const add = (ch: string, weight: number): void => {
    unigrams.set(ch, (unigrams.get(ch) ?? 0) + weight);
    total += weight;
  };
  for (const sequence of sequences) {
    let prev = '';
    for (const position of sequence) {
      if (!position.sure) {
        for (const [ch, weight] of position.shares) if (HAN.test(ch)) add(ch, weight);
        prev = '';
        continue;
      }
      const { ch } = position;
      if (!HAN.test(ch)) {
        prev = '';
        continue;
      }
      add(ch, 1);
      if (prev !== '' && (canLoseByte(prev) || canLoseByte(ch)))
        bigrams.set(prev + ch, (bigrams.get(prev + ch) ?? 0) + 1);
      prev = ch;
    }
  }
  return { unigrams, bigrams, total };
}

/** Model-file lines: `= c count` for characters, `~ qc count` for pairs; counts under `minCount` are left out. */
export function domainLines(domain: DomainModel, minCount = 0.5): string[] {
  const lines = (prefix: string, counts: Map<string, number>): string[] =>
    [...counts].filter(([, n]) => n >= minCount).map(([key, n]) => `${prefix} ${key} ${Number(n.toFixed(1))}`);
  return [...lines('=', domain.unigrams), ...lines('~', domain.bigrams)];
}

/** Reads one `=` or `~` line into the model; returns false for other lines. */
export function readDomainLine(domain: DomainModel, line: string): boolean {
  const kind = line[0];
  if (kind !== '=' && kind !== '~') return false;
  const [, key = '', countText = ''] = line.split(' ');
  const count = Number(countText);
  if (key === '' || !(count > 0)) return true;
  if (kind === '=') {
    domain.unigrams.set(key, count);
    domain.total += count;
  } else domain.bigrams.set(key, count);
  return true;
}

/** log P_domain(c), mixed with the general probability; `generalLogProb` is log P_general(c). */
function domainLogProb(domain: DomainModel, c: string, generalLogProb: number): number {
  const seen = (domain.unigrams.get(c) ?? 0) / domain.total;
  return Math.log((1 - UNIGRAM_MIX) * seen + UNIGRAM_MIX * Math.exp(generalLogProb));
}

/** log P_domain(c) - log P_general(c) for a Chinese character that can lose a byte; 0 otherwise. */
export function charShift(domain: DomainModel, c: string, generalLogProb: number): number {
  if (domain.total === 0 || !canLoseByte(c) || !HAN.test(c)) return 0;
  return domainLogProb(domain, c, generalLogProb) - generalLogProb;
}

/** max(0, log P_domain(c | q) - log P_domain(c)), with P_domain(c | q) from discounted pair counts. */
export function pairBonus(domain: DomainModel, q: string, c: string, generalLogProb: number): number {
  if (domain.total === 0) return 0;
  const pair = domain.bigrams.get(q + c);
  const row = domain.unigrams.get(q);
  if (pair === undefined || row === undefined || pair <= PAIR_DISCOUNT) return 0;
  return Math.max(0, Math.log((pair - PAIR_DISCOUNT) / row) - domainLogProb(domain, c, generalLogProb));
}
