import { arxivIdMonth } from './identity.ts';

/**
 * A paper's date as it can honestly be shown (pure): the day; only the month when that is all a
 * source gave (stored as the 1st of the month by the schema's convention, so a 1st is shown as its
 * month: a real 1st loses its day, a month never gains one); or, when no source dated the paper, the
 * month of its arXiv id. Undefined when nothing tells.
 */
export function paperDate(p: { publishedOn: string | null; arxivId: string | null }): string | undefined {
  if (p.publishedOn) return p.publishedOn.endsWith('-01') ? p.publishedOn.slice(0, 7) : p.publishedOn.slice(0, 10);
  return p.arxivId ? arxivIdMonth(p.arxivId) : undefined;
}
