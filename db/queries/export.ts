import { asc, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { citations, notes, paperSources, papers } from '../schema.ts';

/**
 * The corpus as plain objects, one per paper, with its notes, provenance and the arXiv ids/titles
 * it cites: what `grpo-digest export` writes. Internal columns (search vectors) are left out.
 */
export async function exportCorpus(db: Db) {
  const rows = await db
    .select({
      paper: papers,
      notes: sql<unknown[]>`coalesce((select json_agg(json_build_object('source', n.source, 'lang', n.lang, 'heading', n.heading,
        'motivation', n.motivation, 'method', n.method, 'results', n.results, 'takeaways', n.takeaways,
        'unresolvedChars', n.unresolved_chars) order by n.id) from ${notes} n where n.paper_id = ${papers.id}), '[]')`,
      sources: sql<unknown[]>`coalesce((select json_agg(json_build_object('source', s.source, 'externalId', s.external_id,
        'version', s.version) order by s.id) from ${paperSources} s where s.paper_id = ${papers.id}), '[]')`,
      cites: sql<unknown[]>`coalesce((select json_agg(json_build_object('arxivId', c2.arxiv_id, 'title', c2.title))
        from ${citations} c join ${papers} c2 on c2.id = c.cited_paper_id where c.citing_paper_id = ${papers.id}), '[]')`,
    })
    .from(papers)
    .orderBy(asc(papers.id));
  return rows.map(({ paper, ...rest }) => {
    const { search: _s, searchZh: _z, searchNotes: _n, ...fields } = paper;
    return { ...fields, ...rest };
  });
}

