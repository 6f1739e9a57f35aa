/**
 * File 004: a saved Hugging Face papers search page. After the page chrome, per paper:
 *   <title> / <abstract> / [<"• N authors" or "<org-slug> <Org Name>"> / "·" / <date> [<upvotes>]]
 * The meta block is missing for some papers (and cut off for the last one). No ids.
 */
import { titleKey } from '../../src/core/papers/identity.ts';
import type { SeedPaper } from '../../src/core/seeds/types.ts';
import { splitLines } from './text.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE = /^([A-Z][a-z]{2}) (\d{1,2})(?:, (\d{4}))?(?: (\d+))?$/;
const AUTHORS = /^•\s*(\d+)\s+authors?$/;
/** Titles are at most ~150 characters; the page's abstracts are well over that. */
const MIN_ABSTRACT = 200;

export interface HfSearchOptions {
  /**
   * The year of dates shown without one. Hugging Face drops the year for the current year, so
   * by default it is the year after the latest explicit one on the page (`Nov 17, 2025` next
   * to `Jan 12` means the page was saved in 2026).
   */
  currentYear?: number;
}

interface RawEntry {
  title: string;
  abstract: string;
  meta?: string;
  date?: string;
}

export function parseHfSearch(text: string, options: HfSearchOptions = {}): SeedPaper[] {
  const raw = readEntries(text);
  const explicitYears = raw.flatMap((e) => {
    const year = e.date ? DATE.exec(e.date)?.[3] : undefined;
    return year ? [Number(year)] : [];
  });
  const currentYear = options.currentYear ?? (explicitYears.length > 0 ? Math.max(...explicitYears) + 1 : undefined);
  return raw.map((e) => toSeedPaper(e, currentYear));
}

/** Walks the non-empty lines: a record starts at a short line followed by an abstract-length one. */
function readEntries(text: string): RawEntry[] {
  const lines = splitLines(text)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const entries: RawEntry[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const title = lines[i]!;
    const abstract = lines[i + 1]!;
    if (title.length >= MIN_ABSTRACT || abstract.length < MIN_ABSTRACT) continue;
    const entry: RawEntry = { title, abstract };
    if (lines[i + 3] === '·') {
      entry.meta = lines[i + 2];
      const date = lines[i + 4];
      if (date !== undefined && DATE.test(date)) entry.date = date;
      i += entry.date ? 4 : 3;
    } else {
      i += 1;
    }
    entries.push(entry);
  }
  return entries;
}

function toSeedPaper(e: RawEntry, currentYear: number | undefined): SeedPaper {
  const paper: SeedPaper = { file: '004', entryId: titleKey(e.title), title: e.title, abstract: e.abstract };
  const authors = e.meta ? AUTHORS.exec(e.meta) : null;
  if (authors) paper.authorCount = Number(authors[1]);
  // An organisation line is "<hub slug> <display name>" (`ByteDance-Seed ByteDance Seed`).
  else if (e.meta) paper.organization = e.meta.includes(' ') ? e.meta.slice(e.meta.indexOf(' ') + 1) : e.meta;

  const date = e.date ? DATE.exec(e.date) : null;
  if (date) {
    const [, mon, day, year, upvotes] = date;
    const y = year ? Number(year) : currentYear;
    const month = MONTHS.indexOf(mon ?? '') + 1;
    if (y !== undefined && month > 0) paper.publishedOn = `${y}-${pad(month)}-${pad(Number(day))}`;
    if (upvotes !== undefined) paper.hfUpvotes = Number(upvotes);
  }
  return paper;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
