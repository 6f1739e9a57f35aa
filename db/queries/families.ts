/**
 * The GRPO family tree, derived rather than stored: a paper builds on family X when the classifier
 * put X in its families, when it cites X's defining paper, or (for GRPO only) when its summary's
 * grpo_delta marks an axis as changed relative to GRPO. Computed at read time, so a reclassification,
 * a new citation edge or a new summary shows up without a migration or a backfill.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { FamilyRef } from '../../src/core/papers/families.ts';
import { getPaperByArxivId, SUMMARY_COLUMNS, type PaperSummaryRow } from './papers.ts';
import type { Paper } from '../schema.ts';

/** Why a paper is in a family's list. */
export interface FamilyMemberRow extends PaperSummaryRow {
  named: boolean;
  cites: boolean;
  delta: boolean;
  /** Votes for the paper in this server's reading-group queue. */
  votes: number;
}

/** A stored summary says the paper changes at least one GRPO axis. */
const DELTA_CHANGED = sql`exists (
  select 1 from summaries s,
    jsonb_each_text(case when jsonb_typeof(s.content->'grpo_delta') = 'object' then s.content->'grpo_delta' else '{}'::jsonb end) d
  where s.paper_id = p.id and s.status = 'ok' and d.value ilike 'changed%')`;

/** Named by the classifier or the judge, and still in the family (a moderator may have marked it out). */
const named = (f: FamilyRef): SQL => sql`(${f.name}::text = any(p.families) and coalesce(p.grpo_family, false))`;
const cites = (f: FamilyRef): SQL =>
  f.arxivId
    ? sql`exists (select 1 from citations c join papers d on d.id = c.cited_paper_id where c.citing_paper_id = p.id and d.arxiv_id = ${f.arxivId})`
    : sql`false`;
const delta = (f: FamilyRef): SQL => (f.viaDelta ? DELTA_CHANGED : sql`false`);

/** `p` builds on the family (and is not its defining paper); with `defining`, the defining paper counts too. */
export function buildsOn(f: FamilyRef, opts: { defining?: boolean } = {}): SQL {
  const builds = sql`(${named(f)} or ${cites(f)} or ${delta(f)}) and p.arxiv_id is distinct from ${f.arxivId}::text`;
  return opts.defining && f.arxivId ? sql`((${builds}) or p.arxiv_id = ${f.arxivId}::text)` : builds;
}

/** One page of the papers that build on a family, newest first, with the total. */
export async function familyMembers(
  db: Db,
  f: FamilyRef,
  opts: { limit: number; offset: number; guildId?: string },
): Promise<{ rows: FamilyMemberRow[]; total: number }> {
  const votes = opts.guildId
    ? sql`(select count(*)::int from votes v join queue_items q on q.id = v.queue_item_id where q.paper_id = p.id and q.guild_id = ${opts.guildId})`
    : sql`0`;
  const rows = (await db.execute(sql`
    select ${SUMMARY_COLUMNS}, ${named(f)} as named, ${cites(f)} as cites, ${delta(f)} as delta, ${votes} as votes,
      count(*) over ()::int as total
    from papers p
    where ${buildsOn(f)}
    order by p.published_on desc nulls last, p.first_seen_at desc, p.id desc
    limit ${opts.limit} offset ${opts.offset}`)) as unknown as (FamilyMemberRow & { total: number })[];
  const total = rows[0] ? Number(rows[0].total) : await familyCount(db, f);
  return { rows: rows.map(({ total: _t, ...r }) => ({ ...r, votes: Number(r.votes) })), total };
}

async function familyCount(db: Db, f: FamilyRef): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from papers p where ${buildsOn(f)}`);
  return Number(row?.n ?? 0);
}

/** Per family: how many papers are in it (its defining paper and those that build on it), and how many of those became news in [from, to) (imported and backfilled papers never do). */
export async function familyCounts(
  db: Db,
  families: readonly FamilyRef[],
  month: { from: Date; to: Date },
): Promise<Map<string, { total: number; thisMonth: number }>> {
  const from = month.from.toISOString();
  const to = month.to.toISOString();
  const results = await Promise.all(
    families.map(async (f) => {
      const [row] = await db.execute<{ total: number; month: number }>(sql`
      select count(*)::int as total,
        count(*) filter (where p.news_at >= ${from}::timestamptz and p.news_at < ${to}::timestamptz)::int as month
      from papers p where ${buildsOn(f, { defining: true })}`);
      return [f.name, { total: Number(row?.total ?? 0), thisMonth: Number(row?.month ?? 0) }] as const;
    }),
  );
  return new Map(results);
}

/** The defining paper, when it is stored. */
export async function definingPaper(db: Db, f: FamilyRef): Promise<Paper | undefined> {
  return f.arxivId ? getPaperByArxivId(db, f.arxivId) : undefined;
}

/**
 * The families a paper builds on, among `families`: named by the classifier, cited defining
 * papers, and GRPO when its summary changes a GRPO axis.
 */
export async function familiesOfPaper(db: Db, paperId: number, families: readonly FamilyRef[]): Promise<string[]> {
  if (families.length === 0) return [];
  const [row] = await db.execute<{ names: string[] }>(
    sql`select ${familyNames(families, { defining: false })} as names from papers p where p.id = ${paperId}`,
  );
  return row?.names ?? [];
}

/** The names of the families `p` builds on, as a text[] expression; with `defining`, a family's defining paper counts in it (as in `familyCounts`). */
export function familyNames(families: readonly FamilyRef[], opts: { defining: boolean }): SQL {
  if (families.length === 0) return sql`'{}'::text[]`;
  const checks = families.map((f) => sql`case when ${buildsOn(f, opts)} then ${f.name}::text end`);
  // Nulls are removed in SQL: the driver returns an array's NULL elements as the string "NULL".
  return sql`array_remove(array[${sql.join(checks, sql`, `)}], null)`;
}
