/**
 * A paper as a BibTeX entry (pure): `/paper cite`, `grpo-digest export --format bibtex` and the
 * reading group's history file. An arXiv paper is `@misc` with the eprint fields arXiv's own "Export
 * BibTeX citation" writes (eprint, archivePrefix, primaryClass, url); when arXiv knows where it was
 * published (the journal reference its authors gave), it is `@inproceedings` with the booktitle or
 * `@article` with the journal, eprint fields kept. Field values are escaped in `bibtex-text.ts`.
 */
import { ARXIV_CATEGORY } from '../config.ts';
import { arxivAbsUrl, arxivIdMonth, parseArxivId } from './identity.ts';
import { bibtexAuthors, bibtexEscape, bibtexTitle, cleanLine } from './bibtex-text.ts';
import { citationKey } from './bibtex-key.ts';

/** What an entry reads of a paper (a stored row fits). */
export interface CitablePaper {
  arxivId: string | null;
  title: string;
  authors: readonly string[];
  /** YYYY-MM-DD. */
  publishedOn: string | null;
  /** arXiv categories, primary first. */
  categories: readonly string[];
  /** arXiv's journal reference (`ICLR 2026`, `Transactions on Machine Learning Research, 2025`), when a feed gave one. */
  journalRef?: string | null;
  doi?: string | null;
}

export interface BibtexEntry {
  key: string;
  /** The entry, from `@` to its closing brace, without a trailing newline. */
  text: string;
}

/** A venue written as a conference's (its proceedings) rather than a journal's. */
const CONFERENCE =
  /\b(?:proceedings|proc\.|conference|conf\.|workshop|symposium|neurips|nips|icml|iclr|acl|emnlp|naacl|eacl|aacl|coling|aaai|ijcai|cvpr|iccv|eccv|kdd|sigir|www|colm|aistats|uai|corl|icra|iros|interspeech|icassp|findings)\b/i;
/** Crossref's pattern for the DOIs it issues: nothing in it needs escaping. */
const DOI = /^10\.\d{4,9}\/[-._;()/:A-Za-z0-9]+$/;
const VENUE_MAX = 300;

/** The year an entry gives: the venue's when it names one, else the paper's date, else its arXiv id's month. */
function yearOf(p: CitablePaper, venue: string | undefined): string | undefined {
  const inVenue = venue?.match(/\b(?:19|20)\d{2}\b/)?.[0];
  return inVenue ?? p.publishedOn?.slice(0, 4) ?? (p.arxivId ? arxivIdMonth(p.arxivId)?.slice(0, 4) : undefined);
}

function entryType(venue: string | undefined): { type: string; venueField?: [string, string] } {
  if (!venue) return { type: 'misc' };
  const value = bibtexEscape(venue);
  return CONFERENCE.test(venue)
    ? { type: 'inproceedings', venueField: ['booktitle', value] }
    : { type: 'article', venueField: ['journal', value] };
}

/** The fields in arXiv's order; a value is already valid BibTeX. */
function fields(p: CitablePaper): { type: string; list: [string, string][] } {
  const venue = p.journalRef ? cleanLine(p.journalRef).slice(0, VENUE_MAX) || undefined : undefined;
  const { type, venueField } = entryType(venue);
  const list: [string, string][] = [['title', bibtexTitle(p.title)]];
  const authors = bibtexAuthors(p.authors);
  if (authors) list.push(['author', authors]);
  if (venueField) list.push(venueField);
  const year = yearOf(p, venue);
  if (year) list.push(['year', year]);
  // Only an id the bot could parse is written: a stored id is data too.
  const eprint = p.arxivId && parseArxivId(p.arxivId)?.id === p.arxivId ? p.arxivId : undefined;
  if (eprint) {
    list.push(['eprint', eprint], ['archivePrefix', 'arXiv']);
    const primary = p.categories[0];
    if (primary && ARXIV_CATEGORY.test(primary)) list.push(['primaryClass', primary]);
  }
  const doi = p.doi?.trim();
  if (doi && DOI.test(doi)) list.push(['doi', doi]);
  if (eprint) list.push(['url', arxivAbsUrl(eprint)]);
  return { type, list };
}

/** One entry under `key`. */
export function bibtexEntry(p: CitablePaper, key = citationKey(p)): BibtexEntry {
  const { type, list } = fields(p);
  const body = list.map(([name, value]) => `  ${name} = {${value}}`).join(',\n');
  return { key, text: `@${type}{${key},\n${body}\n}` };
}

/**
 * The entries of one export, in the given order, each key unique: the first paper with a key keeps
 * it (the key `/paper cite` gives), the next ones get a, b, c ... (`shao2024deepseekmatha`).
 */
export function bibtexEntries(papers: readonly CitablePaper[]): BibtexEntry[] {
  const used = new Set<string>();
  return papers.map((p) => {
    const base = citationKey(p);
    let key = base;
    for (let i = 0; used.has(key); i++) key = `${base}${suffix(i)}`;
    used.add(key);
    return bibtexEntry(p, key);
  });
}

/** a ... z, then za ... zz, zza ...: never runs out, stays letters. */
function suffix(i: number): string {
  return 'z'.repeat(Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));
}

/** A .bib file: entries separated by a blank line, ending with a newline (empty for no papers). */
export function bibtexFile(entries: readonly BibtexEntry[]): string {
  return entries.length ? `${entries.map((e) => e.text).join('\n\n')}\n` : '';
}
