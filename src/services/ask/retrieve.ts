import type { Db } from '../../../db/client.ts';
import type { Paper } from '../../../db/schema.ts';
import { papersInOrder } from '../../../db/queries/papers.ts';
import { searchPapers } from '../search/search.ts';
import type { Correction } from '../../core/ranking/typo.ts';

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
 * A source must score at least this share of the best paper's score: below it a paper matched a
 * side word of the question ("collapse" of "entropy collapse" in a graph paper), and an answer, or
 * the key-less list of sources, would cite it as if it were on topic.
 */
export const RELEVANCE_FLOOR = 0.35;

/**
 * The papers an answer may use, most relevant first: `/paper search`'s ranking of the question
 * (which drops question scaffolding itself) down to RELEVANCE_FLOOR of the best score, then the
 * since/topic filters on the full rows; with the misspelled words it searched as others, for the notice.
 */
export async function retrievePapers(
  db: Db,
  question: string,
  o: RetrieveOptions,
): Promise<{ papers: Paper[]; corrections: Correction[] }> {
  const filtered = Boolean(o.since || o.topic);
  const offset = o.offset ?? 0;
  // Read from the top even for "More like this", so the floor is the same share of the same best score.
  const ranked = await searchPapers(db, question, { limit: filtered ? FILTER_POOL : offset + o.k });
  const best = ranked.hits[0]?.score ?? 0;
  const hits = ranked.hits.filter((h) => h.score >= best * RELEVANCE_FLOOR);
  const corrections = ranked.corrections ?? [];
  if (hits.length === 0) return { papers: [], corrections };
  const rows = await papersInOrder(
    db,
    hits.map((h) => h.id),
  );
  const kept = rows.filter(
    (p) =>
      (!o.since || (p.publishedOn !== null && p.publishedOn >= o.since)) && (!o.topic || p.topics.includes(o.topic)),
  );
  return { papers: kept.slice(offset, offset + o.k), corrections };
}
