/**
 * A GRPO-family paper's versions (`paper_versions`): written by ingest when a feed brings a newer
 * version, compared by jobs/diff-versions.ts once the new version's text is settled, and read by
 * the paper card (its latest note).
 */
import { and, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { papers, paperTexts, paperVersions, summaries, type Paper, type PaperVersion } from '../schema.ts';

export interface VersionText {
  version: number;
  title: string;
  abstract: string;
  announcedOn: string | null;
}

/**
 * Records revisions of stored papers, before the papers' rows are updated, in one statement: for each,
 * the version it replaces (kept if already recorded) and the new one, only when the paper is in the
 * GRPO family now, so the thousands of daily replaces of other papers store nothing.
 */
export async function recordRevisions(
  db: DbOrTx,
  revisions: readonly { id: number; from: VersionText; to: VersionText }[],
): Promise<void> {
  if (revisions.length === 0) return;
  const rows = JSON.stringify(
    revisions.flatMap((r) =>
      [r.from, r.to].map((v) => ({
        paper_id: r.id,
        version: v.version,
        title: v.title,
        abstract: v.abstract,
        announced_on: v.announcedOn,
      })),
    ),
  );
  await db.execute(sql`
    insert into paper_versions (paper_id, version, title, abstract, announced_on)
    select p.id, x.version, x.title, x.abstract, x.announced_on
    from jsonb_to_recordset(${rows}::jsonb) as x(paper_id int, version int, title text, abstract text, announced_on date)
    join papers p on p.id = x.paper_id
    where p.grpo_family
    on conflict (paper_id, version) do nothing`);
}

/**
 * Versions not compared yet that are their paper's current version and whose text is settled: read,
 * known to have no HTML, failed for good, or still missing after `waitUntil` (compared from the
 * abstract alone then). Oldest first.
 */
export async function versionsToDiff(db: Db, p: { waitUntil: Date; limit: number }) {
  const settled = sql`exists (select 1 from ${paperTexts} t where t.paper_id = ${paperVersions.paperId}
    and t.version = ${paperVersions.version} and (t.status in ('ok', 'no-html') or t.retry_at is null))`;
  return db
    .select({ version: paperVersions, paper: papers })
    .from(paperVersions)
    .innerJoin(papers, eq(papers.id, paperVersions.paperId))
    .where(
      and(
        isNull(paperVersions.diffedAt),
        eq(papers.arxivVersion, paperVersions.version),
        sql`(${settled} or ${paperVersions.createdAt} <= ${p.waitUntil.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(paperVersions.createdAt, paperVersions.paperId)
    .limit(p.limit);
}

/** The newest recorded version before `version`. */
export async function previousVersion(db: DbOrTx, paperId: number, version: number): Promise<PaperVersion | undefined> {
  const [row] = await db
    .select()
    .from(paperVersions)
    .where(and(eq(paperVersions.paperId, paperId), lt(paperVersions.version, version)))
    .orderBy(desc(paperVersions.version))
    .limit(1);
  return row;
}

/** The rules settings of a version's text, or null when it was not read. */
export async function versionSettings(db: DbOrTx, paperId: number, version: number) {
  const [row] = await db
    .select({ settings: paperTexts.rulesSettings })
    .from(paperTexts)
    .where(and(eq(paperTexts.paperId, paperId), eq(paperTexts.version, version), eq(paperTexts.status, 'ok')));
  return row?.settings ?? null;
}

export async function updateVersion(
  db: DbOrTx,
  paperId: number,
  version: number,
  set: Partial<Omit<PaperVersion, 'paperId' | 'version'>>,
): Promise<void> {
  await db
    .update(paperVersions)
    .set(set)
    .where(and(eq(paperVersions.paperId, paperId), eq(paperVersions.version, version)));
}

/**
 * After a meaningful change: the summaries written so far (per language) are kept with the version
 * they describe, and marked to be written again (`basis` 'previous-version', which the summariser's
 * pending list takes up; the old one is shown until the new one is written).
 */
export async function retireSummaries(db: DbOrTx, paperId: number): Promise<Record<string, unknown>> {
  const rows = await db
    .select({ lang: summaries.lang, promptVersion: summaries.promptVersion, content: summaries.content })
    .from(summaries)
    .where(and(eq(summaries.paperId, paperId), eq(summaries.status, 'ok')));
  await db
    .update(summaries)
    .set({ basis: 'previous-version', attempts: 0, retryAt: null })
    .where(and(eq(summaries.paperId, paperId), eq(summaries.status, 'ok')));
  return Object.fromEntries(rows.map((r) => [`${r.lang}:${r.promptVersion}`, r.content]));
}

/** The latest compared version of a paper, for its card. */
export async function latestVersionNote(
  db: Db,
  paper: Pick<Paper, 'id'>,
): Promise<Pick<PaperVersion, 'version' | 'announcedOn' | 'note' | 'meaningful'> | undefined> {
  const [row] = await db
    .select({
      version: paperVersions.version,
      announcedOn: paperVersions.announcedOn,
      note: paperVersions.note,
      meaningful: paperVersions.meaningful,
    })
    .from(paperVersions)
    .where(and(eq(paperVersions.paperId, paper.id), isNotNull(paperVersions.note)))
    .orderBy(desc(paperVersions.version))
    .limit(1);
  return row;
}
