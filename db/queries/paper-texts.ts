import { and, desc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { papers, paperTexts, paperVersions, type FullText, type Paper } from '../schema.ts';

export type NewFullText = typeof paperTexts.$inferInsert;

/**
 * GRPO-family papers with an arXiv id whose current version has no text yet, or whose failed fetch
 * is due again (`retry_at` passed; a fetch that failed for good has none): new versions waiting to be
 * compared with the one before first, then newest news, then newest seen. Each comes with its failed
 * attempts so far.
 */
export async function textCandidates(
  db: Db,
  p: { limit: number; now: Date },
): Promise<{ paper: Paper; attempts: number }[]> {
  const rows = await db
    .select({ paper: papers, attempts: paperTexts.attempts })
    .from(papers)
    .leftJoin(
      paperTexts,
      and(eq(paperTexts.paperId, papers.id), eq(paperTexts.version, sql`coalesce(${papers.arxivVersion}, 0)`)),
    )
    .where(
      and(
        eq(papers.grpoFamily, true),
        isNotNull(papers.arxivId),
        or(sql`${paperTexts.id} is null`, and(eq(paperTexts.status, 'failed'), lte(paperTexts.retryAt, p.now))),
      ),
    )
    .orderBy(
      sql`exists (select 1 from ${paperVersions} v where v.paper_id = ${papers.id} and v.version = ${papers.arxivVersion} and v.diffed_at is null) desc`,
      sql`${papers.newsAt} desc nulls last`,
      desc(papers.firstSeenAt),
      desc(papers.id),
    )
    .limit(p.limit);
  return rows.map((r) => ({ paper: r.paper, attempts: r.attempts ?? 0 }));
}

/** Stores what a fetch found for one paper version, replacing an earlier attempt at the same version. */
export async function saveText(db: Db, row: NewFullText & { fetchedAt: Date }): Promise<void> {
  const { paperId: _p, version: _v, ...set } = row;
  await db
    .insert(paperTexts)
    .values(row)
    .onConflictDoUpdate({ target: [paperTexts.paperId, paperTexts.version], set });
}

/** The text row of a paper's version, if any. */
export async function getText(db: Db, paperId: number, version: number): Promise<FullText | undefined> {
  const [row] = await db
    .select()
    .from(paperTexts)
    .where(and(eq(paperTexts.paperId, paperId), eq(paperTexts.version, version)));
  return row;
}

/** Per paper, its newest readable text (an older version's until the current one is read), keyed by paper id. */
export async function readableTexts(db: Db, paperIds: readonly number[]): Promise<Map<number, FullText>> {
  if (paperIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([paperTexts.paperId])
    .from(paperTexts)
    .where(and(inArray(paperTexts.paperId, [...paperIds]), eq(paperTexts.status, 'ok')))
    .orderBy(paperTexts.paperId, desc(paperTexts.version));
  return new Map(rows.map((r) => [r.paperId, r]));
}

/** Per paper, the rules extractor's settings of its newest readable text: `readableTexts` without the text itself (cards and digests read only these). */
export async function readableRulesSettings(
  db: Db,
  paperIds: readonly number[],
): Promise<Map<number, FullText['rulesSettings']>> {
  if (paperIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([paperTexts.paperId], { paperId: paperTexts.paperId, rulesSettings: paperTexts.rulesSettings })
    .from(paperTexts)
    .where(and(inArray(paperTexts.paperId, [...paperIds]), eq(paperTexts.status, 'ok')))
    .orderBy(paperTexts.paperId, desc(paperTexts.version));
  return new Map(rows.map((r) => [r.paperId, r.rulesSettings]));
}

/** Texts by status (the newest row of each family paper), for /status. */
export async function textCounts(db: Db): Promise<{ ok: number; noHtml: number; failed: number; missing: number }> {
  const [row] = await db.execute<{ ok: number; no_html: number; failed: number; missing: number }>(sql`
    select count(*) filter (where t.status = 'ok')::int as ok, count(*) filter (where t.status = 'no-html')::int as no_html,
           count(*) filter (where t.status = 'failed')::int as failed, count(*) filter (where t.status is null)::int as missing
    from ${papers} p
    left join lateral (select status from ${paperTexts} x where x.paper_id = p.id order by x.version desc limit 1) t on true
    where p.grpo_family and p.arxiv_id is not null`);
  return { ok: row?.ok ?? 0, noHtml: row?.no_html ?? 0, failed: row?.failed ?? 0, missing: row?.missing ?? 0 };
}
