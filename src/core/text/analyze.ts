/**
 * How English text becomes search terms, the same way for the indexed papers and for a query (pure).
 * Lowercased, accents folded, British -ise spellings made -ize, stop words dropped, Porter-stemmed;
 * version numbers keep their dot (qwen2.5). A hyphenated compound is indexed as its parts and, apart
 * from the word sequence, as the joined word (multi-turn: multi, turn + multiturn), so a query that
 * writes it joined finds it too.
 */
import { stemmer } from 'stemmer';

const STOP = new Set(
  `a an and are as at be been being but by can could did do does for from had has have how i if in into is it its
  me my of on or our so such than that the their them then there these they this those to was we were what when where which while who
  why will with would you your via per about over under between both each more most other some any no not only own same too very just
  also than`.split(/\s+/),
);

/** Words as written, lowercase, in order; `joined` gets the joined forms of hyphenated compounds. */
export function words(text: string, joined?: string[]): string[] {
  const out: string[] = [];
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  for (const m of folded.matchAll(/[\p{L}\p{N}]+(?:[.+'’-][\p{L}\p{N}]+)*\+*/gu)) {
    const raw = m[0].replace(/['’]s$/, '');
    if (/^reinforce\+\+$/.test(raw)) {
      out.push('reinforce++');
      continue;
    }
    const parts = raw.split(/[-'’]+|(?<=\D)\.(?=\D)|\.$|\++$/).filter(Boolean);
    out.push(...parts);
    if (joined && parts.length > 1 && parts.length <= 3 && raw.includes('-') && !/\d/.test(raw))
      joined.push(parts.join(''));
  }
  return out;
}

/** British -ise/-yse spellings of ML words, made -ize/-yze (pairwise, noise, supervise and promise stay). */
const BRITISH =
  /^(optim|minim|maxim|normal|regular|general|summar|token|character|random|recogn|util|organ|special|stabil|initial|visual|categor|penal|emphas|memor|standard|central|local|personal|quant|binar|vector|serial|synthes|hypothes|critic|parametr|parameter|modern|priorit|real|final|contextual|conceptual|discret|factor|linear|symmetr|sanit|custom|author|digit|neutral|polar|formal|harmon|anal)(i|y)s(e|ed|es|ing|ation|ations|er|ers)$/;

const memo = new Map<string, string | null>();

/** One word as an index term: null for a stop word. Memoised: stemming is most of indexing's and classifying's cost. */
export function term(word: string): string | null {
  let t = memo.get(word);
  if (t === undefined) {
    t = stem(word);
    if (memo.size > 200_000) memo.clear();
    memo.set(word, t);
  }
  return t;
}

function stem(word: string): string | null {
  if (STOP.has(word) || (word.length < 2 && !/\d/.test(word))) return null;
  if (/\d/.test(word) || word.includes('+')) return word; // qwen2.5, 7b, reinforce++: no stemming
  const american = word.replace(BRITISH, '$1$2z$3');
  return stemmer(american);
}

const toTerms = (ws: readonly string[]) =>
  ws.flatMap((w) => {
    const t = term(w);
    return t ? [t] : [];
  });

/** The terms of a text, in order (stop words removed). */
export function terms(text: string): string[] {
  return toTerms(words(text));
}

/** The terms of a text to index: the sequence, then the joined compounds; `words` are the words of `seq`, as written (lowercase). */
export function indexTerms(text: string): { seq: string[]; joined: string[]; words: string[] } {
  const joined: string[] = [];
  const seq: string[] = [];
  const written: string[] = [];
  for (const w of words(text, joined)) {
    const t = term(w);
    if (t) {
      seq.push(t);
      written.push(w);
    }
  }
  return { seq, joined: toTerms(joined), words: written };
}

/** Adjacent pairs of terms (`sequenc level`), indexed for titles so that a phrase outranks scattered words. */
export function pairs(ts: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < ts.length; i++) out.push(`${ts[i]} ${ts[i + 1]}`);
  return out;
}
