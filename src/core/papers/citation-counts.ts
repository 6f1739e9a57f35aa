/**
 * A paper's citation counts as Semantic Scholar gave them, and how cards say them. Pure.
 * The figures are a day old at most when the refresh runs; a card always says when they were read.
 */

export interface CitationCounts {
  citationCount: number;
  /** Semantic Scholar's "highly influential" citations (a citing paper that builds on this one). */
  influentialCount: number;
  fetchedAt: Date;
}

/** "Cited by 1,234 (56 influential) · as of 2026-11-28": what cards show, only when the counts are known. */
export function citedByText(c: CitationCounts): string {
  const n = c.citationCount.toLocaleString('en-US');
  const m = c.influentialCount.toLocaleString('en-US');
  return `Cited by ${n} (${m} influential) · as of ${c.fetchedAt.toISOString().slice(0, 10)}`;
}

/** Semantic Scholar's id for an arXiv paper (its id without the version): `ARXIV:2402.03300`. */
export const s2ArxivId = (arxivId: string): string => `ARXIV:${arxivId}`;
