import { ingestCandidates } from '../src/services/ingest/ingest.ts';
import { QUERY_TERMS } from '../src/core/papers/lexicon.ts';
import { familyQuery, scopedQuery } from '../src/services/sources/arxiv-api.ts';
import { apiPages } from '../src/services/sources/feeds.ts';
import { skippedCount } from '../src/services/sources/sanitize.ts';
import type { SkippedItem } from '../src/core/papers/candidate.ts';
import type { JobDeps, JobStats } from './index.ts';
import { httpOptions } from './poll-feeds.ts';

export interface BackfillOptions {
  /** First and last submission day, YYYY-MM-DD (UTC), inclusive. */
  from: string;
  to: string;
  /** An arXiv search_query used instead of the family terms (still limited to the window and categories). */
  query?: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

const PAGE = 500;
const MAX_PAGES = 60; // arXiv's cap: 30,000 results per query

/**
 * Stores the papers submitted in a date window, from the arXiv API (paced, 1 request / 3 s).
 * Backfilled papers are history, not news: they are never announced in digests.
 */
export async function backfill(deps: JobDeps, opts: BackfillOptions): Promise<JobStats> {
  const from = new Date(`${opts.from}T00:00:00Z`);
  const to = new Date(`${opts.to}T23:59:00Z`);
  const scope = { categories: deps.config.sources.arxivCategories, from, to };
  const query = opts.query ? scopedQuery(opts.query, scope) : familyQuery(QUERY_TERMS, scope);
  const { arxivHttp } = httpOptions(deps, opts.signal);
  const totals = { fetched: 0, new: 0, updated: 0, family: 0, skipped: 0 };
  const examples: SkippedItem[] = [];
  // Page by page: each page is stored before the next is fetched, so memory holds one page of 500,
  // and a failure on a late page keeps the earlier ones (a re-run then skips them: it writes nothing).
  const pages = apiPages(deps.config, arxivHttp, query, {
    pageSize: PAGE,
    maxPages: MAX_PAGES,
    onPage: opts.onProgress,
  });
  for await (const page of pages) {
    const stats = await ingestCandidates(deps, page.candidates, { newsAt: null });
    const skipped = skippedCount(page.skipped);
    totals.fetched += page.candidates.length + skipped;
    totals.skipped += skipped;
    totals.new += stats.new;
    totals.updated += stats.updated;
    totals.family += stats.family;
    examples.push(...page.skipped.slice(0, 5 - examples.length));
  }
  if (totals.skipped > 0) deps.log.warn({ skipped: totals.skipped, examples }, 'backfill items skipped');
  return totals;
}
