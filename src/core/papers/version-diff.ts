/**
 * What changed between two arXiv versions of a paper, on what the bot shows: the stated settings
 * (the rules extractor's, settings.ts), the benchmarks and figures its abstract names, and the
 * abstract's wording. Pure.
 *
 * The rules, and why:
 * - A setting whose value differs ("group size 8 -> 16") or that the new version states for the
 *   first time matters. One the new version no longer states is listed but does not matter on its
 *   own: the extractor reads a capped text, and a reorganised paper can move a table out of reach.
 *   Settings are compared only when both versions' texts were read (null is "unknown", not "none").
 * - A benchmark named in one abstract and not the other matters ("new AIME25 results"), and so do
 *   changed figures (numbers, model sizes: "44.1% -> 47.3%"); figures that only appear beside a new
 *   benchmark are taken for its results and not listed again.
 * - The rest is wording, judged on the sets of content words (lower case, three letters or more,
 *   no stop words, no digits): their Jaccard distance. Under WORDING_THRESHOLD it is "wording
 *   only" (typos, a rephrased sentence, reordered clauses); at or over it the abstract was
 *   rewritten, which matters. test/src/core/papers/version-diff.test.ts measures the threshold on
 *   real kinds of edits.
 */
import { SETTING_INFO, evidenceKey, isSettingKey } from './settings.ts';

/** What the bot knew of one version. */
export interface VersionSnapshot {
  title: string;
  abstract: string;
  /** The rules extractor's settings of its text; null when its text was not read. */
  settings: readonly { key: string; value: string }[] | null;
}

export interface VersionChange {
  /** Short items, most telling first: "group size 8 -> 16", "new AIME25 results". */
  items: string[];
  /** Re-summarise and tell subscribers; false is wording only. */
  meaningful: boolean;
  /** Jaccard distance of the content words of title and abstract (0 identical, 1 disjoint). */
  wordDistance: number;
}

/** Content-word distance at or over which an abstract counts as rewritten. */
export const WORDING_THRESHOLD = 0.2;

const STOP = new Set(
  'the and for with that this from are was were our its their which these those than then into onto over under also can not but has have been such each when while where what how all any both more most other some only per via using use used based show shows showed'.split(
    ' ',
  ),
);

/** Benchmarks an abstract reports on, by the name the card uses (AIME 2025 and AIME25 are one). */
const BENCHMARKS: readonly [name: string | ((m: RegExpMatchArray) => string), re: RegExp][] = [
  [(m) => `AIME${(m[1] ?? '').slice(-2)}`, /\bAIME[\s-]?'?((?:20)?2\d)\b/gi],
  ['AIME', /\bAIME\b(?![\s-]?'?(?:20)?2\d)/gi],
  [(m) => `AMC${(m[1] ?? '').slice(-2)}`, /\bAMC[\s-]?((?:20)?2\d)\b/gi],
  ['MATH-500', /\bMATH[\s-]?500\b/gi],
  ['GSM8K', /\bGSM-?8K\b/gi],
  ['GPQA', /\bGPQA(?:[\s-]Diamond)?\b/gi],
  ['LiveCodeBench', /\bLiveCodeBench\b/gi],
  ['OlympiadBench', /\bOlympiadBench\b/gi],
  ['Minerva', /\bMinerva(?:[\s-]Math)?\b/gi],
  ['HumanEval', /\bHumanEval\+?/gi],
  ['MBPP', /\bMBPP\b/gi],
  ['MMLU', /\bMMLU(?:-Pro)?\b/gi],
  ['Codeforces', /\bCodeforces\b/gi],
  ['SWE-bench', /\bSWE[\s-]?bench(?:[\s-]Verified)?\b/gi],
  ['ARC-AGI', /\bARC[\s-]AGI(?:[\s-]?\d)?\b/gi],
  ['MathVista', /\bMathVista\b/gi],
  ['MMMU', /\bMMMU\b/gi],
  ['BFCL', /\bBFCL\b/gi],
  ['WebShop', /\bWebShop\b/gi],
  ['ALFWorld', /\bALFWorld\b/gi],
];

/** The benchmarks named in a text, and the text with their names blanked (so "2025" is not a figure). */
export function benchmarksOf(text: string): { names: Set<string>; rest: string } {
  const names = new Set<string>();
  let rest = text;
  for (const [name, re] of BENCHMARKS) {
    rest = rest.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpMatchArray;
      names.add(typeof name === 'string' ? name : name(m));
      return ' ';
    });
  }
  return { names, rest };
}

/** Tokens that carry a digit ("44.1%", "Qwen2.5-Math-7B", "8,192"), LaTeX math markers dropped. */
export function figuresOf(text: string): Set<string> {
  const plain = text.replace(/\\%/g, '%').replace(/[$\\{}]/g, ' ');
  const tokens = plain.match(/[\p{L}\p{N}][\p{L}\p{N}.,%×\-+]*/gu) ?? [];
  return new Set(tokens.map((t) => t.replace(/[.,\-+]+$/, '')).filter((t) => /\d/.test(t)));
}

/** Lower-case content words without digits, for the wording distance. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)));
}

export function jaccardDistance(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return 1 - both / (a.size + b.size - both);
}

const label = (key: string): string => {
  const l = isSettingKey(key) ? SETTING_INFO[key].label : key;
  return /^[A-Z][a-z]/.test(l) ? l[0]!.toLowerCase() + l.slice(1) : l;
};
const short = (v: string) => (v.length > 40 ? `${v.slice(0, 39)}…` : v);

/** Setting items, and whether any of them matters (changed or newly stated). */
function settingChanges(
  before: VersionSnapshot['settings'],
  after: VersionSnapshot['settings'],
): { items: string[]; meaningful: boolean } {
  if (!before || !after) return { items: [], meaningful: false };
  const old = new Map(before.map((s) => [s.key, s.value]));
  const now = new Map(after.map((s) => [s.key, s.value]));
  const items: string[] = [];
  for (const [key, value] of now) {
    const was = old.get(key);
    if (was === undefined) items.push(`${label(key)} ${short(value)} (newly stated)`);
    else if (evidenceKey(was) !== evidenceKey(value)) items.push(`${label(key)} ${short(was)} -> ${short(value)}`);
  }
  const meaningful = items.length > 0;
  for (const key of old.keys()) if (!now.has(key)) items.push(`${label(key)} no longer stated`);
  return { items, meaningful };
}

const list = (xs: Iterable<string>, max = 3) => {
  const all = [...xs];
  return all.length > max ? `${all.slice(0, max).join(', ')} and ${all.length - max} more` : all.join(', ');
};
const minus = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => new Set([...a].filter((x) => !b.has(x)));

/** Items for the benchmarks and figures of the abstract that appear or disappear. */
function abstractChanges(before: string, after: string): string[] {
  const b = benchmarksOf(before);
  const a = benchmarksOf(after);
  const items: string[] = [];
  const added = minus(a.names, b.names);
  const dropped = minus(b.names, a.names);
  if (added.size) items.push(`new ${list(added)} results`);
  if (dropped.size) items.push(`${list(dropped)} results dropped`);
  const fb = figuresOf(b.rest);
  const fa = figuresOf(a.rest);
  const gone = [...minus(fb, fa)];
  const came = [...minus(fa, fb)];
  if (gone.length === 1 && came.length === 1) items.push(`${short(gone[0]!)} -> ${short(came[0]!)}`);
  else if (came.length && gone.length) items.push(`figures ${list(gone)} -> ${list(came)}`);
  // New figures beside a new benchmark are its results: "new AIME25 results" says it.
  else if (came.length && !added.size) items.push(`new figures ${list(came)}`);
  else if (gone.length) items.push(`figures ${list(gone)} dropped`);
  return items;
}

/** How `after` differs from `before`, on what the bot shows. */
export function diffVersions(before: VersionSnapshot, after: VersionSnapshot): VersionChange {
  const settings = settingChanges(before.settings, after.settings);
  const text = abstractChanges(before.abstract, after.abstract);
  const wordDistance = jaccardDistance(
    contentWords(`${before.title} ${before.abstract}`),
    contentWords(`${after.title} ${after.abstract}`),
  );
  const rewritten = wordDistance >= WORDING_THRESHOLD;
  const items = [...settings.items, ...text, ...(rewritten ? ['abstract rewritten'] : [])];
  return { items, meaningful: settings.meaningful || text.length > 0 || rewritten, wordDistance };
}

/** The card's line: "v3 (2026-11-20): group size 8 -> 16; new AIME25 results", or "v3: wording only". */
export function versionNote(version: number, announcedOn: string | null, change: VersionChange): string {
  if (!change.meaningful)
    return `v${version}: wording only${change.items.length ? ` (${change.items.join('; ')})` : ''}`;
  const items = change.items.join('; ');
  const note = `v${version}${announcedOn ? ` (${announcedOn})` : ''}: ${items}`;
  return note.length > 300 ? `${note.slice(0, 299)}…` : note;
}
