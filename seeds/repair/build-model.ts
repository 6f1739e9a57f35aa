/**
 * Builds seeds/repair/zh-model.txt, the language model of the mojibake repair.
 *
 * Sources — jieba's data (MIT licence) as shipped in the npm package
 * `nodejieba` (directory submodules/cppjieba/dict):
 * - jieba.dict.utf8: word, corpus count, part-of-speech tag;
 * - idf.utf8: words of a larger, more recent corpus with their IDF; the words
 *   the dictionary lacks (坍缩, 极高 ...) are added with counts estimated from
 *   the IDF;
 * - pos_dict/prob_trans.utf8 and prob_start.utf8: the transition table of
 *   jieba's part-of-speech HMM, of which only the word-boundary transitions
 *   (end of a word tagged X -> start of a word tagged Y) are kept.
 * Then the domain counts (domain.ts) are learnt from the damaged seed files
 * 002/003 by self-training (self-train.ts): repair them with the model so far,
 * count what was restored with confidence, repeat.
 *
 * The package is not a dependency; fetch it only to regenerate:
 *
 *   cd /tmp && npm pack nodejieba@3.5.8 && mkdir -p nodejieba && tar xzf nodejieba-3.5.8.tgz -C nodejieba
 *   npx tsx seeds/repair/build-model.ts /tmp/nodejieba/package/submodules/cppjieba/dict
 *
 * Options: --min-count N (default 5) and --min-count-plain N (default 30):
 * the least count a multi-character word needs to be kept, if it contains a
 * character that can lose a byte / if it does not (such words only steer how
 * the text around a damaged character is segmented); --rounds N (default 2)
 * self-training rounds; --no-domain skips them; --out PATH.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countDomain, domainLines } from './domain.ts';
import { MODEL_URL } from '../../src/services/package-files.ts';
import { parseModel } from './model.ts';
import { trustedReadings } from './self-train.ts';
import { canLoseByte } from './utf8.ts';

const CJK_WORD = /^[\u3400-\u9fff\uf900-\ufaff]{1,8}$/u;
/** Transitions rarer than this are left out; the model floors missing ones. */
const MIN_LOG_PROB = -14;
/** Tag given to words known only from idf.utf8 (most of them are nouns or noun phrases). */
const IDF_TAG = 'n';

export interface BuildOptions {
  minCount: number;
  minCountPlain: number;
  /** Damaged seed texts to adapt to (domain.ts); none = no domain counts. */
  seeds: readonly string[];
  /** Self-training rounds: repair the seeds, count, rebuild. */
  rounds: number;
}

export interface JiebaFiles {
  dictionary: string;
  idf: string;
  probTrans: string;
  probStart: string;
}

type Entry = [word: string, count: number, tag: string];

function dictionaryEntries(dictionary: string): Entry[] {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const line of dictionary.split('\n')) {
    const [word = '', countText, tag] = line.trim().split(/\s+/);
    const count = Number(countText);
    if (tag === undefined || seen.has(word) || !CJK_WORD.test(word) || !Number.isInteger(count) || count <= 0) continue;
    seen.add(word);
    entries.push([word, count, tag]);
  }
  return entries;
}

/**
 * Entries for the multi-character words of idf.utf8 missing from the
 * dictionary. log count = offset - idf, the offset being the median over the
 * words both files have; at least 1.
 */
function idfEntries(idf: string, dictionary: readonly Entry[]): Entry[] {
  const counts = new Map(dictionary.map(([word, count]) => [word, count]));
  const missing: [string, number][] = [];
  const offsets: number[] = [];
  for (const line of idf.split('\n')) {
    const [word = '', idfText] = line.trim().split(/\s+/);
    const value = Number(idfText);
    if (!CJK_WORD.test(word) || !Number.isFinite(value)) continue;
    const count = counts.get(word);
    if (count !== undefined) offsets.push(Math.log(count) + value);
    else if (Array.from(word).length > 1) missing.push([word, value]);
  }
  offsets.sort((a, b) => a - b);
  const offset = offsets[Math.floor(offsets.length / 2)] ?? 0;
  return missing.map(([word, value]): Entry => [word, Math.max(1, Math.round(Math.exp(offset - value))), IDF_TAG]);
}

/**
 * `@ FROM TO logp` lines: FROM is `E,tag` / `S,tag` (a word that ended) or `^`
 * (start of text), TO is `B,tag` / `S,tag` (a word that starts).
 */
function transitionLines(probTrans: string, probStart: string): string[] {
  const lines: string[] = [];
  const keep = (from: string, to: string, logProb: number): void => {
    if (logProb >= MIN_LOG_PROB) lines.push(`@ ${from} ${to} ${logProb.toFixed(3)}`);
  };
  for (const line of probTrans.split('\n')) {
    if (line.startsWith('#')) continue;
    const [from, to, value] = line.trim().split(':');
    if (from !== undefined && to !== undefined && /^[ES],/.test(from) && /^[BS],/.test(to))
      keep(from, to, Number(value));
  }
  for (const line of probStart.split('\n')) {
    if (line.startsWith('#')) continue;
    const [to, value] = line.trim().split(':');
    if (to !== undefined && /^[BS],/.test(to)) keep('^', to, Number(value));
  }
  return lines;
}

/** Renders the model file from the contents of jieba's data files (and the seeds, for the domain counts). */
export function buildModel(files: JiebaFiles, options: BuildOptions): string {
  const dictionary = dictionaryEntries(files.dictionary);
  const entries = [...dictionary, ...idfEntries(files.idf, dictionary)].filter(([word, count]) => {
    const chars = Array.from(word);
    if (chars.length === 1) return true;
    return count >= (chars.some(canLoseByte) ? options.minCount : options.minCountPlain);
  });
  const words = entries.map(([word, count, tag]) => `${word} ${count} ${tag}`);
  const transitions = transitionLines(files.probTrans, files.probStart);
  const render = (domain: string[]): string =>
    [
      '# Chinese language model for seeds/repair (mojibake repair): jieba word counts with part-of-speech tags,',
      "# the word-boundary tag transitions (natural log) of jieba's POS HMM, and domain character counts.",
      '# Source: jieba data (MIT licence) from the npm package nodejieba@3.5.8, submodules/cppjieba/dict;',
      '# domain counts (= char, ~ pair) from seed files 002/003 as repaired by this model (self-training).',
      `# Regenerate: see seeds/repair/build-model.ts. min-count=${options.minCount}/${options.minCountPlain},`,
      `# words=${words.length}, transitions=${transitions.length}, domain lines=${domain.length}, rounds=${options.rounds}.`,
      ...transitions,
      ...words,
      ...domain,
      '',
    ].join('\n');
  let text = render([]);
  for (let round = 0; round < options.rounds && options.seeds.length > 0; round++) {
    text = render(domainLines(countDomain(trustedReadings(options.seeds, parseModel(text)))));
  }
  return text;
}

function main(argv: string[]): void {
  const args = [...argv];
  const options = { minCount: 5, minCountPlain: 30, rounds: 2 };
  let out = fileURLToPath(MODEL_URL);
  const dataDir = fileURLToPath(new URL('../data/', import.meta.url));
  let seedPaths = readdirSync(dataDir)
    .filter((name) => /^00[23]_.*\.txt$/.test(name))
    .map((name) => join(dataDir, name));
  const positional: string[] = [];
  while (args.length > 0) {
    const arg = args.shift() ?? '';
    if (arg === '--min-count') options.minCount = Number(args.shift());
    else if (arg === '--min-count-plain') options.minCountPlain = Number(args.shift());
    else if (arg === '--rounds') options.rounds = Number(args.shift());
    else if (arg === '--no-domain') seedPaths = [];
    else if (arg === '--out') out = args.shift() ?? out;
    else positional.push(arg);
  }
  const dictDir = positional[0];
  if (dictDir === undefined || !Object.values(options).every(Number.isFinite)) {
    process.stderr.write(
      'usage: tsx seeds/repair/build-model.ts <cppjieba/dict directory> [--min-count N] [--min-count-plain N] [--rounds N] [--no-domain] [--out PATH]\n',
    );
    process.exit(2);
  }
  const read = (path: string): string => readFileSync(join(dictDir, path), 'utf8');
  const files = {
    dictionary: read('jieba.dict.utf8'),
    idf: read('idf.utf8'),
    probTrans: read('pos_dict/prob_trans.utf8'),
    probStart: read('pos_dict/prob_start.utf8'),
  };
  const text = buildModel(files, { ...options, seeds: seedPaths.map((path) => readFileSync(path, 'utf8')) });
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out} (${Buffer.byteLength(text)} bytes)\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
