/**
 * The one shape every feed is normalised into before identity, upsert and classification
 * (DESIGN.md: sources -> normalise -> identify -> upsert -> classify). Source modules turn their
 * wire format into candidates; nothing after them knows which format a paper came from.
 */

export type SourceName = 'arxiv-rss' | 'arxiv-api' | 'hf-daily';

/** arXiv RSS announcement types that survive the server-side filter. */
export type AnnounceType = 'new' | 'cross' | 'replace' | 'replace-cross';

/** Hugging Face daily-papers extras, merged into the same paper by arXiv id. */
export interface HfExtras {
  upvotes?: number;
  numComments?: number;
  githubUrl?: string;
  githubStars?: number;
  projectPage?: string;
  /** The organisation's display name (`fullname`, else `name`). */
  organization?: string;
  aiSummary?: string;
  aiKeywords?: string[];
  /** The daily-papers date (YYYY-MM-DD, UTC) the item was listed under. */
  dailyDate?: string;
}

export interface PaperCandidate {
  source: SourceName;
  /** The item's id within its source: the versioned arXiv id for arXiv (`2403.00446v1`), the bare id for HF. */
  externalId: string;
  /** arXiv id without version: the paper's identity. */
  arxivId: string;
  version?: number;
  /** Whitespace collapsed; LaTeX kept as is; entity-decoded (escape before rendering). */
  title: string;
  abstract: string;
  authors: string[];
  /** arXiv categories, primary first when the source says which one is primary. */
  categories: string[];
  /** RSS only: `replace`/`replace-cross` update a known paper and are never announced as new. */
  announceType?: AnnounceType;
  /** First-version submission or announcement date, YYYY-MM-DD. */
  publishedOn?: string;
  doi?: string;
  journalRef?: string;
  comment?: string;
  hf?: HfExtras;
  /** The item as the source gave it (after parsing), kept as provenance. */
  raw: unknown;
}

/** An item a parser could not turn into a candidate; the rest of the feed still counts. */
export interface SkippedItem {
  reason: string;
  externalId?: string;
  /** How many items this entry stands for (items over a page's limit are skipped as one entry); default 1. */
  count?: number;
}

export interface ParsedFeed<Meta = Record<string, never>> {
  candidates: PaperCandidate[];
  skipped: SkippedItem[];
  meta: Meta;
}

/** The whole response is unusable (HTML error page, malformed XML, API error entry, wrong JSON shape). */
export class FeedError extends Error {
  override name = 'FeedError';
}

/** Collapses the hard wraps and runs of spaces all three sources leave in titles and abstracts. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
