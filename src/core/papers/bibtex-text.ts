/**
 * Paper text as BibTeX field values (pure). Titles, names and venues come from feeds: they are data,
 * so every character that means something to BibTeX or LaTeX is written as a text command, and no
 * value can close its field, open another, or run a command. Braces are the delicate part: BibTeX
 * counts them before LaTeX ever sees a backslash, so `\{` would still unbalance the field; they
 * become `\textbraceleft{}` and `\textbraceright{}`, whose own braces always pair.
 *
 * Non-ASCII letters stay UTF-8 (biber, and bibtex under a UTF-8 LaTeX, read them as they are).
 */
import { readable } from './latex.ts';
import { stripUnsafeChars } from '../reply.ts';

/** LaTeX's special characters as commands that print them; every command is lower case, so no case change touches it. */
const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // Not special to LaTeX, but a backtick in the entry could end the Discord code block it is shown in.
  '`': '\\textasciigrave{}',
};
const SPECIALS = /[\\{}&%$#_~^`]/g;

/** One line of untrusted text: unsafe characters gone, runs of whitespace (newlines too) one space. */
export function cleanLine(text: string): string {
  return stripUnsafeChars(text).replace(/\s+/g, ' ').trim();
}

/** Text as a field value that prints exactly it. */
export function bibtexEscape(text: string): string {
  return cleanLine(text).replace(SPECIALS, (c) => SPECIAL[c] ?? c);
}

/**
 * Styles that sentence-case titles lower every letter outside braces but the first: an acronym or
 * a name with inner capitals or digits (GRPO, DeepSeekMath, Qwen3, R1) would print wrong. Plain
 * capitalised words are left to the style, as the title's own case says nothing more about them.
 */
function keepsItsCase(word: string): boolean {
  return /^.+\p{Lu}/u.test(word) || (/\p{Lu}/u.test(word) && /\d/.test(word));
}

/** A part of a word (between hyphens), braced when its case matters; the punctuation around it stays outside: `{DeepSeekMath}:`. */
function titlePart(part: string): string {
  const [, before = '', core = '', after = ''] = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(part) ?? [];
  if (!keepsItsCase(core)) return bibtexEscape(part);
  const escaped = bibtexEscape(core);
  const braced = escaped.startsWith('\\') ? `{{${escaped}}}` : `{${escaped}}`;
  return `${bibtexEscape(before)}${braced}${bibtexEscape(after)}`;
}

/**
 * The title field: the title's LaTeX read as text (the bot's one reading of it, `readable`), every
 * special character escaped, and words whose case matters braced, each part of a compound on its own
 * (`{R1}-Zero-Like`, `Test-Time` left to the style). A braced group starting with a backslash is a
 * "special character" to BibTeX, whose letters it would still re-case, so such a word gets a second
 * pair of braces.
 */
export function bibtexTitle(title: string): string {
  return cleanLine(readable(title))
    .split(' ')
    .filter((w) => w.length > 0)
    .map((word) =>
      word
        .split(/([-–—/:])/)
        .map((part, i) => (i % 2 === 1 ? part : titlePart(part)))
        .join(''),
    )
    .join(' ');
}

/**
 * One author for an `and`-separated list. A name BibTeX would misread is braced whole, read as one
 * name: one holding the word "and" (two authors), a comma ("Last, First"), or just "others" (et al.).
 */
export function bibtexName(name: string): string {
  const clean = cleanLine(name);
  const escaped = bibtexEscape(clean);
  return /\band\b|,|^others$/i.test(clean) ? `{${escaped}}` : escaped;
}

/** The author field: names in order, unnamed entries left out. */
export function bibtexAuthors(names: readonly string[]): string {
  return names
    .map(cleanLine)
    .filter((n) => n.length > 0)
    .map(bibtexName)
    .join(' and ');
}
