import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

/**
 * The corpus as plain objects, one per paper, with its notes, provenance, the papers it cites and its
 * LLM summaries (every language and prompt version): what `grpo-digest export` writes. Internal
 * columns (search vectors and terms) are left out.
 */
export async function exportCorpus(db: Db): Promise<Record<string, unknown>[]> {
  const rows = await db.execute<{ row: Record<string, unknown> }>(sql`
    select to_jsonb(p) - 'search' - 'search_zh' - 'search_notes'
      || jsonb_build_object(
        'notes', coalesce((select jsonb_agg(jsonb_build_object('source', n.source, 'lang', n.lang, 'heading', n.heading,
          'motivation', n.motivation, 'method', n.method, 'results', n.results, 'takeaways', n.takeaways,
          'unresolved_chars', n.unresolved_chars, 'uncertain_chars', n.uncertain_chars) order by n.id) from notes n where n.paper_id = p.id), '[]'),
        'sources', coalesce((select jsonb_agg(jsonb_build_object('source', s.source, 'external_id', s.external_id,
          'version', s.version) order by s.id) from paper_sources s where s.paper_id = p.id), '[]'),
        'cites', coalesce((select jsonb_agg(jsonb_build_object('arxiv_id', c2.arxiv_id, 'title', c2.title) order by c2.id)
          from citations c join papers c2 on c2.id = c.cited_paper_id where c.citing_paper_id = p.id), '[]'),
        'summaries', coalesce((select jsonb_agg(jsonb_build_object('lang', s.lang, 'prompt_version', s.prompt_version, 'model', s.model,
          'created_at', s.created_at, 'content', s.content) order by s.lang, s.created_at desc)
          from summaries s where s.paper_id = p.id and s.status = 'ok'), '[]')
      ) as row
    from papers p order by p.id`);
  return rows.map((r) => r.row);
}
