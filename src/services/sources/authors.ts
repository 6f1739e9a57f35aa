/**
 * Author-name clean-up shared by the arXiv parsers. arXiv metadata is typed by submitters, so names
 * arrive with TeX accent escapes (`St\'ephane`, `B{\o}rge`, `\v{S}prem`) and, in RSS, as one
 * comma-joined `dc:creator` string whose affiliations are themselves comma lists. Pure.
 */

import { collapseWhitespace } from '../../core/papers/candidate.ts';

/**
 * Splits an RSS `dc:creator` into names. The generator writes `Name (aff1, aff2), Name`, so a plain
 * split on ", " would turn affiliations into authors: split only at parenthesis depth 0, then drop
 * the parenthesised part. An unclosed "(" (seen in truncated captures) swallows the rest of the
 * string as affiliation rather than inventing authors out of it.
 */
export function splitCreators(creator: string): string[] {
  const names: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of creator) {
    if (ch === '(') depth += 1;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && ch === ',') {
      names.push(current);
      current = '';
    } else if (depth === 0) current += ch;
  }
  names.push(current);
  return names.map(cleanAuthorName).filter((n) => n.length > 0);
}

/** Decodes TeX escapes, removes leftover grouping braces and collapses whitespace in one name. */
export function cleanAuthorName(name: string): string {
  return collapseWhitespace(decodeLatexAccents(name).replace(/[{}]/g, ''));
}

// Accent commands mapped to Unicode combining marks; NFC then folds letter + mark into one code point.
const SYMBOL_ACCENTS: Record<string, string> = {
  "'": '\u0301',
  '`': '\u0300',
  '^': '\u0302',
  '"': '\u0308',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
};
const LETTER_ACCENTS: Record<string, string> = {
  u: '\u0306',
  v: '\u030C',
  H: '\u030B',
  c: '\u0327',
  k: '\u0328',
  r: '\u030A',
  d: '\u0323',
  b: '\u0331',
};
const SPECIAL_LETTERS: Record<string, string> = {
  o: 'ø',
  O: 'Ø',
  ae: 'æ',
  AE: 'Æ',
  aa: 'å',
  AA: 'Å',
  oe: 'œ',
  OE: 'Œ',
  ss: 'ß',
  l: 'ł',
  L: 'Ł',
  i: 'ı',
  j: 'ȷ',
};

// The accented letter may itself be a command (`\'{\i}` is í), braced or bare.
const BASE = String.raw`(?:\{\s*(\\[ij]|[A-Za-z])\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))`;
const SYMBOL_RE = new RegExp(String.raw`\\([\x27\x60^"~=.])\s*` + BASE, 'g');
const LETTER_RE = new RegExp(
  String.raw`\\([uvHckrdb])(?:\s*\{\s*(\\[ij]|[A-Za-z])\s*\}|\s+(\\[ij](?![A-Za-z])|[A-Za-z]))`,
  'g',
);
const SPECIAL_RE = /\\(ae|AE|aa|AA|oe|OE|ss|o|O|l|L|i|j)(?![A-Za-z])(?:\{\}|\s+(?=[a-z]))?/g;

/**
 * Decodes the accent escapes that appear in arXiv author fields. Only names go through this:
 * titles and abstracts keep their LaTeX, where `\'` and `\v` can mean something else in maths.
 */
export function decodeLatexAccents(s: string): string {
  if (!s.includes('\\')) return s;
  const base = (cmd: string | undefined, bare: string | undefined): string => {
    const letter = cmd ?? bare ?? '';
    // A dotless i under an accent is how TeX spells an accented i; Unicode wants the dotted one.
    return letter === '\\i' ? 'i' : letter === '\\j' ? 'j' : letter;
  };
  return s
    .replace(
      SYMBOL_RE,
      (_m, accent: string, braced?: string, bare?: string) => base(braced, bare) + SYMBOL_ACCENTS[accent],
    )
    .replace(
      LETTER_RE,
      (_m, accent: string, braced?: string, bare?: string) => base(braced, bare) + LETTER_ACCENTS[accent],
    )
    .replace(SPECIAL_RE, (_m, name: string) => SPECIAL_LETTERS[name] ?? '')
    .replace(/\\&/g, '&')
    .normalize('NFC');
}
