/**
 * Papers as BibTeX reads them (`src/core/papers/bibtex.ts`): the paper's own columns, and where it was
 * published as arXiv said it in a feed item (the journal reference and DOI the authors gave, kept in
 * the item's provenance, `paper_sources.raw`: `journalRef`/`doi` from the RSS feed,
 * `arxiv:journal_ref`/`arxiv:doi` from the API, a string or rss-parser's `{ _: text }`).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { CitablePaper } from '../../src/core/papers/bibtex.ts';
import type { FamilyRef } from '../../src/core/papers/families.ts';
import { memberOf } from './families.ts';

export type CitableRow = CitablePaper & { id: number; authors: string[]; categories: string[] };

/** The newest feed item's text under any of `keys` (later versions may add a journal reference). */
function fromSources(...keys: string[]): SQL {
  const values = keys.map(
    (k) => sql`case jsonb_typeof(s.raw->${k}::text) when 'string' then s.raw->>${k}::text
      when 'object' then s.raw->${k}::text->>'_' end`,
  );
  const value = sql`nullif(btrim(coalesce(${sql.join(values, sql`, `)})), '')`;
  return sql`(select ${value} from paper_sources s where s.paper_id = p.id and ${value} is not null
    order by s.version desc nulls last, s.id desc limit 1)`;
}

async function citable(db: Db, from: SQL, where: SQL, order: SQL): Promise<CitableRow[]> {
  const rows = await db.execute(sql`
    select p.id, p.arxiv_id as "arxivId", p.title, p.authors, p.published_on::text as "publishedOn", p.categories,
      ${fromSources('journalRef', 'arxiv:journal_ref')} as "journalRef", ${fromSources('doi', 'arxiv:doi')} as doi
    from ${from} where ${where} order by ${order}`);
  return [...rows] as unknown as CitableRow[];
}

const papersTable = sql`papers p`;
/**
 * Oldest first, so a shared key's plain form goes to the paper that had it first; a paper no source
 * dated (a seed) by its arXiv id's month (`2507.18071`: 2025-07), as its card and entry date it.
 */
const byDate = sql`coalesce(p.published_on::text, case when p.arxiv_id ~ '^[0-9]{4}[.][0-9]{4,5}$'
    then '20' || substr(p.arxiv_id, 1, 2) || '-' || substr(p.arxiv_id, 3, 2) end) asc nulls last,
  p.arxiv_id asc nulls last, p.id asc`;

/** One paper. */
export async function citablePaper(db: Db, paperId: number): Promise<CitableRow | undefined> {
  const [row] = await citable(db, papersTable, sql`p.id = ${paperId}`, sql`p.id`);
  return row;
}

/** The whole GRPO family, or one family's members with its defining paper. */
export async function citableFamily(db: Db, family?: FamilyRef): Promise<CitableRow[]> {
  const where = family ? memberOf(family, { defining: true }) : sql`coalesce(p.grpo_family, false)`;
  return citable(db, papersTable, where, byDate);
}

/**
 * A server's reading group: `queue`, the papers waiting (scheduled sessions first, then by votes and
 * nomination, as /queue show lists them); `history`, the papers read, in the order they were read.
 */
export async function citableQueue(db: Db, guildId: string, part: 'queue' | 'history'): Promise<CitableRow[]> {
  const from = sql`queue_items q join papers p on p.id = q.paper_id`;
  if (part === 'history')
    return citable(
      db,
      from,
      sql`q.guild_id = ${guildId} and q.status = 'done'`,
      sql`q.done_at asc nulls last, q.id asc`,
    );
  const votes = sql`(select count(*) from votes v where v.queue_item_id = q.id)`;
  return citable(
    db,
    from,
    sql`q.guild_id = ${guildId} and q.status in ('queued', 'scheduled')`,
    sql`q.status = 'scheduled' desc, q.scheduled_for asc nulls last, ${votes} desc, q.nominated_at asc, q.id asc`,
  );
}

/** The servers whose reading group has any paper, queued or read: whom `export --queue` may mean. */
export async function readingGroupGuilds(db: Db): Promise<string[]> {
  const rows = await db.execute<{ guildId: string }>(
    sql`select distinct guild_id as "guildId" from queue_items where status <> 'removed' order by 1`,
  );
  return rows.map((r) => r.guildId);
}
