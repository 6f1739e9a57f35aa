/**
 * A synthetic, GRPO-family-flavoured corpus for the search benchmark, deterministic from a seed.
 * Abstracts mix Zipf-distributed words (function words, ML words, a long tail of rare pseudo-words)
 * with words of one or two topic clusters, so common words are everywhere, topic words co-occur and
 * rare words are rare, as in a real corpus. About 15% of papers have a Chinese title, 8% Chinese notes.
 */
import { titleKey } from '../src/core/papers/identity.ts';
import { cjkTerms } from '../src/core/papers/search-terms.ts';
import {
  FIRST_NAMES,
  GENERAL,
  LANDMARKS,
  LAST_NAMES,
  METHODS,
  RARE,
  TITLE_ADJS,
  TITLE_NOUNS,
  TITLE_TASKS,
  TOPICS,
  ZH_FILLER,
  ZH_TERMS,
} from './vocab.ts';

export interface BenchPaper {
  arxivId: string;
  title: string;
  titleKey: string;
  titleZh: string | null;
  abstract: string;
  abstractZh: string | null;
  authors: string[];
  publishedOn: string;
  topics: string[];
  searchNotes: string;
  searchZh: string;
}

/** mulberry32: a tiny, fast, seedable PRNG (Math.random cannot be seeded). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Samples ranks 0..n-1 with P(r) proportional to 1/(r+1)^s, by binary search over the CDF. */
function zipf<T>(items: readonly T[], s: number): (r: () => number) => T {
  const cdf = new Float64Array(items.length);
  let sum = 0;
  items.forEach((_, i) => (cdf[i] = sum += 1 / (i + 1) ** s));
  return (r) => {
    const x = r() * sum;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'vex',
  'sul',
  'dra',
  'pen',
  'qui',
  'zan',
  'bel',
  'cor',
  'fy',
  'gan',
  'hul',
];

/** The i-th rare pseudo-word of the tail (stable across seeds, so queries can name one). */
export function tailWord(i: number): string {
  let w = '';
  for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return `${w}ic`;
}

export const TAIL_SIZE = 20_000;
const GENERAL_SET = [...new Set(GENERAL)];
const general = zipf(GENERAL_SET, 1.0);
/** Title words skip the function words at the head of GENERAL (up to 'without'...'through two'). */
const contentWord = zipf(GENERAL_SET.slice(GENERAL_SET.indexOf('model')), 1.0);
/** The tail: pseudo-words, with a real domain word every 40 ranks (sudoku is rare, not common). */
const TAIL = Array.from(
  { length: TAIL_SIZE },
  (_, i) => (i % 40 === 20 ? RARE[(i - 20) / 40] : undefined) ?? tailWord(i),
);
const tail = zipf(TAIL, 1.0);
/** About 8% of running words come from the rare tail, as in real abstracts outside a core vocabulary. */
const word = (r: () => number) => (r() < 0.08 ? tail(r) : general(r));
const method = zipf(METHODS, 1.3);
const zhTerm = zipf(ZH_TERMS, 0.8);
const TOPIC_NAMES = Object.keys(TOPICS);
const START = Date.UTC(2023, 0, 1);
const DAYS = 1420; // up to November 2026

export function* generateCorpus(seed: number, count: number): Generator<BenchPaper> {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  for (let i = 0; i < count; i++) {
    const topics = r() < 0.4 ? [pick(TOPIC_NAMES), pick(TOPIC_NAMES)] : [pick(TOPIC_NAMES)];
    const topicWords = topics.flatMap((t) => TOPICS[t]!);
    const sentence = () => {
      const n = int(12, 28);
      const ws = Array.from({ length: n }, () => (r() < 0.3 ? pick(topicWords) : r() < 0.008 ? method(r) : word(r)));
      return `${ws.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
    };
    const abstractWords = int(150, 250);
    const sentences: string[] = [];
    for (let n = 0; n < abstractWords; n += 20) sentences.push(sentence());
    const landmark = landmarkAt(i, count);
    const title = landmark?.title ?? makeTitle(r, pick, topicWords);
    const titleZh = landmark
      ? (landmark.titleZh ?? null)
      : r() < 0.15
        ? Array.from({ length: int(2, 4) }, () => zhTerm(r)).join(r() < 0.5 ? '' : '的')
        : null;
    const abstractZh =
      r() < 0.08 ? Array.from({ length: int(30, 60) }, () => (r() < 0.5 ? zhTerm(r) : pick(ZH_FILLER))).join('') : null;
    const day = new Date(START + int(0, DAYS) * 86_400_000).toISOString().slice(0, 10);
    yield {
      arxivId: `${day.slice(2, 4)}${day.slice(5, 7)}.${String(i).padStart(5, '0')}`,
      title,
      titleKey: titleKey(title),
      titleZh,
      abstract: sentences.join(' '),
      abstractZh,
      authors: Array.from({ length: int(2, 10) }, () => `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`),
      publishedOn: day,
      topics,
      searchNotes: r() < 0.1 ? sentence() + ' ' + sentence() : '',
      searchZh: titleZh || abstractZh ? cjkTerms(`${titleZh ?? ''}\n${abstractZh ?? ''}`).join(' ') : '',
    };
  }
}

function landmarkAt(i: number, count: number): (typeof LANDMARKS)[number] | undefined {
  const k = LANDMARKS.findIndex((_, j) => Math.floor(((j + 0.5) * count) / LANDMARKS.length) === i);
  return LANDMARKS[k];
}

/** Title words: template words, topic words, content words by rank, now and then a rare name. */
function makeTitle(r: () => number, pick: <T>(xs: readonly T[]) => T, topicWords: string[]): string {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const content = () => cap(r() < 0.06 ? tail(r) : r() < 0.5 ? pick(topicWords) : contentWord(r));
  const noun = () => (r() < 0.5 ? pick(TITLE_NOUNS) : content());
  const adj = () => (r() < 0.5 ? pick(TITLE_ADJS) : content());
  const task = () => pick(TITLE_TASKS);
  const m = method(r);
  const head = r() < 0.35 ? `${r() < 0.25 ? `${m}-${content()}` : m}: ` : r() < 0.1 ? `${cap(tail(r))}: ` : '';
  const body = [
    () => `${adj()} ${noun()} ${noun()} for ${task()}`,
    () => `${adj()} ${content()} ${noun()} via ${content()} ${noun()}`,
    () => `Towards ${adj()} ${noun()} in ${content()} ${task()}`,
    () => `${adj()} ${adj()} ${noun()} with ${content()} ${noun()}`,
    () => `Rethinking ${content()} ${noun()} for ${task()} ${noun()}`,
    () => `When ${content()} Meets ${content()}: ${adj()} ${noun()} for ${task()}`,
    () => `${content()} ${noun()} Matters in ${adj()} ${noun()}`,
  ];
  return head + pick(body)();
}
