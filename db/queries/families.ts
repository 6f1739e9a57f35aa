/**
 * The GRPO family tree, derived rather than stored: a paper is a member of family X when the
 * classifier (by role: defining paper, variant, trains with it) or the judge put X in its families and
 * it is in the GRPO family (a moderator's `family:out` takes it out of every family), or, for GRPO
 * only, when its summary's grpo_delta marks an axis as changed. Papers that only cite X's defining
 * paper are listed apart and never counted as members. Computed at read time, so a reclassification,
 * a judge's or moderator's decision or a new summary shows up everywhere at once.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { FamilyRef } from '../../src/core/papers/families.ts';
import { getPaperByArxivId, SUMMARY_COLUMNS, type PaperSummaryRow } from './papers.ts';
import type { Paper } from '../schema.ts';

/** Why a paper is in a family's list. */
export interface FamilyMemberRow extends PaperSummaryRow {
  /** Named a member by the classifier's roles or the judge (and still in the GRPO family). */
  named: boolean;
  /** Also cites the family's defining paper. */
  cites: boolean;
  /** Its LLM summary changes a GRPO axis (GRPO only). */
  delta: boolean;
  /** Votes for the paper in this server's reading-group queue. */
  votes: number;
}

/** A stored summary says the paper changes at least one GRPO axis. */
const DELTA_CHANGED = sql`exists (
  select 1 from summaries s,
    jsonb_each_text(case when jsonb_typeof(s.content->'grpo_delta') = 'object' then s.content->'grpo_delta' else '{}'::jsonb end) d
  where s.paper_id = p.id and s.status = 'ok' and d.value ilike 'changed%')`;

const inFamily = sql`coalesce(p.grpo_family, false)`;
/** Named by the classifier (by role) or the judge, and still in the family (a moderator may have marked it out). */
const named = (f: FamilyRef): SQL => sql`(${f.name}::text = any(p.families) and ${inFamily})`;
const cites = (f: FamilyRef): SQL =>
  f.arxivId
    ? sql`exists (select 1 from citations c join papers d on d.id = c.cited_paper_id where c.citing_paper_id = p.id and d.arxiv_id = ${f.arxivId})`
    : sql`false`;
/** With a key, a summary that changes a GRPO axis makes a GRPO-family paper a GRPO variant. */
const delta = (f: FamilyRef): SQL => (f.viaDelta ? sql`(${DELTA_CHANGED} and ${inFamily})` : sql`false`);

/**
 * `p` is a member of the family: named as it by role (defining paper, variant, trains with it) or, for
 * GRPO, changes a GRPO axis in its summary; never for merely citing the defining paper (see `citesOnly`).
 * With `defining`, the defining paper counts too.
 */
export function memberOf(f: FamilyRef, opts: { defining?: boolean } = {}): SQL {
  const member = sql`(${named(f)} or ${delta(f)}) and p.arxiv_id is distinct from ${f.arxivId}::text`;
  // coalesce: a paper without an arXiv id must be plainly not the defining paper, never null (`not` of null hides it).
  return opts.defining && f.arxivId ? sql`((${member}) or coalesce(p.arxiv_id = ${f.arxivId}::text, false))` : member;
}

/** `p` cites the family's defining paper but is not a member (nor the defining paper): shown apart, never counted as the family. */
export function citesOnly(f: FamilyRef): SQL {
  return sql`${cites(f)} and not (${memberOf(f, { defining: true })})`;
}

/** One page of the family's members, newest first, with the total. */
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
    where ${memberOf(f)}
    order by p.published_on desc nulls last, p.first_seen_at desc, p.id desc
    limit ${opts.limit} offset ${opts.offset}`)) as unknown as (FamilyMemberRow & { total: number })[];
  const total = rows[0] ? Number(rows[0].total) : await countWhere(db, memberOf(f));
  return { rows: rows.map(({ total: _t, ...r }) => ({ ...r, votes: Number(r.votes) })), total };
}

/** The newest papers that cite the defining paper without being members, and how many there are. */
export async function familyCiters(
  db: Db,
  f: FamilyRef,
  limit: number,
): Promise<{ rows: PaperSummaryRow[]; total: number }> {
  if (!f.arxivId) return { rows: [], total: 0 };
  const rows = (await db.execute(sql`
    select ${SUMMARY_COLUMNS}, count(*) over ()::int as total
    from papers p where ${citesOnly(f)}
    order by p.published_on desc nulls last, p.first_seen_at desc, p.id desc
    limit ${limit}`)) as unknown as (PaperSummaryRow & { total: number })[];
  return { rows: rows.map(({ total: _t, ...r }) => r), total: Number(rows[0]?.total ?? 0) };
}

async function countWhere(db: Db, where: SQL): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from papers p where ${where}`);
  return Number(row?.n ?? 0);
}

/** Per family: its members (the defining paper included), how many of them became news in [from, to) (imported and backfilled papers never do), and how many other papers cite its defining paper. */
export async function familyCounts(
  db: Db,
  families: readonly FamilyRef[],
  month: { from: Date; to: Date },
): Promise<Map<string, { total: number; thisMonth: number; citing: number }>> {
  const from = month.from.toISOString();
  const to = month.to.toISOString();
  const results = await Promise.all(
    families.map(async (f) => {
      const [row] = await db.execute<{ total: number; month: number; citing: number }>(sql`
      select count(*) filter (where ${memberOf(f, { defining: true })})::int as total,
        count(*) filter (where (${memberOf(f, { defining: true })}) and p.news_at >= ${from}::timestamptz and p.news_at < ${to}::timestamptz)::int as month,
        count(*) filter (where ${citesOnly(f)})::int as citing
      from papers p`);
      return [
        f.name,
        { total: Number(row?.total ?? 0), thisMonth: Number(row?.month ?? 0), citing: Number(row?.citing ?? 0) },
      ] as const;
    }),
  );
  return new Map(results);
}

/** The defining paper, when it is stored. */
export async function definingPaper(db: Db, f: FamilyRef): Promise<Paper | undefined> {
  return f.arxivId ? getPaperByArxivId(db, f.arxivId) : undefined;
}

/**
 * The families a paper is a member of, among `families` (named by role, or GRPO through its summary),
 * and apart, those whose defining paper it only cites.
 */
export async function familiesOfPaper(
  db: Db,
  paperId: number,
  families: readonly FamilyRef[],
): Promise<{ members: string[]; cites: string[] }> {
  if (families.length === 0) return { members: [], cites: [] };
  const citing = families.map((f) => sql`case when ${citesOnly(f)} then ${f.name}::text end`);
  const [row] = await db.execute<{ members: string[]; cites: string[] }>(
    sql`select ${familyNames(families, { defining: false })} as members,
      array_remove(array[${sql.join(citing, sql`, `)}], null) as cites
    from papers p where p.id = ${paperId}`,
  );
  return { members: row?.members ?? [], cites: row?.cites ?? [] };
}

/** The names of the families `p` is a member of, as a text[] expression; with `defining`, a family's defining paper counts in it (as in `familyCounts`). */
export function familyNames(families: readonly FamilyRef[], opts: { defining: boolean }): SQL {
  if (families.length === 0) return sql`'{}'::text[]`;
  const checks = families.map((f) => sql`case when ${memberOf(f, opts)} then ${f.name}::text end`);
  // Nulls are removed in SQL: the driver returns an array's NULL elements as the string "NULL".
  return sql`array_remove(array[${sql.join(checks, sql`, `)}], null)`;
}
