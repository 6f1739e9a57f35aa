import type { Db } from '../../db/client.ts';
import { rankPapers, type SearchOptions, type SearchPage } from '../../db/queries/search.ts';
import { searchTerms } from '../papers/search-terms.ts';

export type { SearchHit, SearchOptions, SearchPage } from '../../db/queries/search.ts';

/** Ranks the corpus for a free-text query: the query's terms (src/papers/search-terms.ts), then the ranking in Postgres. */
export async function searchPapers(db: Db, query: string, opts: SearchOptions): Promise<SearchPage> {
  return rankPapers(db, searchTerms(query), opts);
}
