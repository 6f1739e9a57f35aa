import type { Db } from '../../../db/client.ts';
import type { Paper } from '../../../db/schema.ts';
import { papersInOrder } from '../../../db/queries/papers.ts';
import { searchPapers } from '../search/search.ts';

export interface RetrieveOptions {
  /** How many papers to keep (the answer's sources). */
  k: number;
  /** Only papers published on or after this day (YYYY-MM-DD). */
  since?: string;
  /** Only papers with this topic slug. */
  topic?: string;
  /** Ranked papers to skip ("More like this" asks for the next ones). */
  offset?: number;
}

/** How many ranked papers are read to fill `k` after the since/topic filters. */
const FILTER_POOL = 200;

/**
 * The papers an answer may use, most relevant first: exactly `/paper search`'s ranking of the
 * question (which drops question scaffolding itself), then the since/topic filters on the full rows.
 */
export async function retrievePapers(db: Db, question: string, o: RetrieveOptions): Promise<Paper[]> {
  const filtered = Boolean(o.since || o.topic);
  const offset = o.offset ?? 0;
  const { hits } = await searchPapers(db, question, {
    limit: filtered ? FILTER_POOL : o.k,
    offset: filtered ? 0 : offset,
  });
  if (hits.length === 0) return [];
  const rows = await papersInOrder(
    db,
    hits.map((h) => h.id),
  );
  const kept = rows.filter(
    (p) =>
      (!o.since || (p.publishedOn !== null && p.publishedOn >= o.since)) && (!o.topic || p.topics.includes(o.topic)),
  );
  return filtered ? kept.slice(offset, offset + o.k) : kept.slice(0, o.k);
}
