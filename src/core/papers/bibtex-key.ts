/**
 * A paper's citation key, as Google Scholar and most reference managers make it: the first author's
 * surname, the year, the first significant word of the title (`shao2024deepseekmath`); without an
 * author, the first two significant title words and the year (`groupsequence2025`). ASCII letters
 * and digits only, so any BibTeX and any LaTeX `\cite` take it; the same paper always gets the same key.
 */
import { readable } from './latex.ts';
import { arxivIdMonth } from './identity.ts';
import { cleanLine } from './bibtex-text.ts';

/** Words a title starts with that say nothing about the paper. */
const MINOR = new Set(
  (
    'a an the on of in for to and or with from by at as is are be via vs versus towards toward into over under ' +
    'when what why how do does can should your our we it its this that these those not no beyond about'
  ).split(' '),
);
const KEY_MAX = 60;

/** Letters NFKD does not take apart. */
const FOLD: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower-case ASCII letters and digits of `text`: accents dropped (Schrödinger -> schrodinger), the rest gone. */
export function asciiFold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c] ?? '')
    .replace(/[^a-z0-9]/g, '');
}

/** The surname of an arXiv-style name ("First Middle Last"; "Last, First" when it has a comma); a trailing Jr. or III is skipped. */
function surname(name: string): string {
  const clean = cleanLine(name);
  if (clean.includes(',')) return asciiFold(clean.split(',')[0]!);
  const words = clean.split(' ').filter((w) => !/^(?:jr\.?|sr\.?|ii|iii|iv)$/i.test(w));
  return asciiFold(words.at(-1) ?? '');
}

/** The first `n` title words that are not minor words, folded; words split at spaces and punctuation (GRPO-style -> grpo). */
function firstWords(title: string, n: number): string {
  const words = cleanLine(readable(title))
    .split(/[\s\-–—:;,.!?/()[\]"'“”‘’]+/)
    .map(asciiFold)
    .filter((w) => w.length > 0);
  const significant = words.filter((w) => !MINOR.has(w));
  return (significant.length ? significant : words).slice(0, n).join('');
}

/** The key of one paper; papers without a usable author, year or title word still get one (`arxiv250718071` at worst). */
export function citationKey(p: {
  arxivId: string | null;
  title: string;
  authors: readonly string[];
  publishedOn: string | null;
}): string {
  // The first named author only: a later author's surname would credit the wrong person.
  const firstAuthor = p.authors.find((a) => cleanLine(a).length > 0);
  const first = firstAuthor ? surname(firstAuthor) : '';
  const year = p.publishedOn?.slice(0, 4) ?? (p.arxivId ? arxivIdMonth(p.arxivId)?.slice(0, 4) : undefined) ?? '';
  const y = /^\d{4}$/.test(year) ? year : '';
  // Without an author the key starts with the title, never with the year, and takes two words: one
  // word and a year alone are shared by too many papers (`groupsequence2025`).
  const key = (first ? `${first}${y}${firstWords(p.title, 1)}` : `${firstWords(p.title, 2)}${y}`).slice(0, KEY_MAX);
  // A key of digits alone would read as a number; one with nothing of the paper is no key.
  if (/[a-z]/.test(key)) return key;
  return p.arxivId ? `arxiv${asciiFold(p.arxivId)}` : `paper${key}`;
}
