import { and, desc, eq, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import { deleteState, getState, setState } from './app-state.ts';
import { channels, notes, papers, paperTexts, summaries, type Note, type Paper, type Summary } from '../schema.ts';
export type NewSummary = typeof summaries.$inferInsert;

/**
 * GRPO-family papers with an abstract to summarise in this language and prompt version, newest news
 * first, then newest seen: those with no summary yet, and those whose failed attempt is due again
 * (`retry_at` passed; a row that failed for good has none), and those summarised from the abstract
 * alone whose full text has since been read (`upgrade`: redone once from the text; a failed redo
 * keeps the summary and is tried again on the same schedule), and those written before a meaningful
 * new version (`basis` 'previous-version', jobs/diff-versions.ts: redone the same way). Each comes
 * with its failed attempts so far. Papers known only by title are left out: a summary of a title alone would be invented.
 */
export async function pendingPapers(
  db: Db,
  p: { lang: string; promptVersion: string; limit: number; now: Date },
): Promise<{ paper: Paper; attempts: number; upgrade: boolean }[]> {
  const hasText = sql`exists (select 1 from ${paperTexts} where ${paperTexts.paperId} = ${papers.id} and ${paperTexts.status} = 'ok')`;
  const due = or(and(isNull(summaries.retryAt), eq(summaries.attempts, 0)), lte(summaries.retryAt, p.now));
  const rows = await db
    .select({ paper: papers, attempts: summaries.attempts, status: summaries.status })
    .from(papers)
    .leftJoin(
      summaries,
      and(eq(summaries.paperId, papers.id), eq(summaries.lang, p.lang), eq(summaries.promptVersion, p.promptVersion)),
    )
    .where(
      and(
        eq(papers.grpoFamily, true),
        ne(papers.abstract, ''),
        or(
          isNull(summaries.id),
          eq(summaries.status, 'fallback'),
          and(eq(summaries.status, 'failed'), lte(summaries.retryAt, p.now)),
          and(eq(summaries.status, 'ok'), eq(summaries.basis, 'abstract'), hasText, due),
          and(eq(summaries.status, 'ok'), eq(summaries.basis, 'previous-version'), due),
        ),
      ),
    )
    .orderBy(sql`${papers.newsAt} desc nulls last`, desc(papers.firstSeenAt), desc(papers.id))
    .limit(p.limit);
  return rows.map((r) => ({ paper: r.paper, attempts: r.attempts ?? 0, upgrade: r.status === 'ok' }));
}

/**
 * Stores a paper's summary outcome once per paper + language + prompt version. An `ok` row is final
 * (never regenerated), except that one written from the abstract is replaced by an `ok` one written
 * from the full text, and one written before a meaningful new version by any `ok` one; a `failed` or `fallback` row is replaced by the next attempt's outcome, its
 * tokens and cost added to what the earlier attempts used. Returns whether the row was written.
 */
export async function saveSummary(db: Db, row: NewSummary & { createdAt: Date }): Promise<boolean> {
  const add = (col: AnyPgColumn, v: number | string | undefined) => sql`${col} + ${v ?? 0}`;
  const written = await db
    .insert(summaries)
    .values(row)
    .onConflictDoUpdate({
      target: [summaries.paperId, summaries.lang, summaries.promptVersion],
      set: {
        status: row.status,
        model: row.model ?? null,
        content: row.content ?? null,
        error: row.error ?? null,
        inputTokens: add(summaries.inputTokens, row.inputTokens),
        outputTokens: add(summaries.outputTokens, row.outputTokens),
        cacheReadTokens: add(summaries.cacheReadTokens, row.cacheReadTokens),
        cacheWriteTokens: add(summaries.cacheWriteTokens, row.cacheWriteTokens),
        costUsd: sql`${summaries.costUsd} + ${row.costUsd ?? '0'}::numeric`,
        attempts: row.attempts ?? 0,
        retryAt: row.retryAt ?? null,
        createdAt: row.createdAt,
        basis: row.basis ?? 'abstract',
      },
      setWhere:
        row.status === 'ok' && row.basis === 'full-text'
          ? or(
              inArray(summaries.status, ['fallback', 'failed']),
              inArray(summaries.basis, ['abstract', 'previous-version']),
            )
          : row.status === 'ok'
            ? or(inArray(summaries.status, ['fallback', 'failed']), eq(summaries.basis, 'previous-version'))
            : inArray(summaries.status, ['fallback', 'failed']),
    })
    .returning({ id: summaries.id });
  return written.length > 0;
}

/**
 * A failed redo of an abstract-based summary from the full text: the summary stays as it is; the
 * attempt's tokens and cost are added and the next try is scheduled (none: left as it is for good).
 */
export async function recordFailedUpgrade(
  db: Db,
  p: {
    paperId: number;
    lang: string;
    promptVersion: string;
    attempts: number;
    retryAt: Date | null;
    inputTokens: number;
    outputTokens: number;
    costUsd: string;
  },
): Promise<void> {
  await db
    .update(summaries)
    .set({
      attempts: p.attempts,
      retryAt: p.retryAt,
      inputTokens: sql`${summaries.inputTokens} + ${p.inputTokens}`,
      outputTokens: sql`${summaries.outputTokens} + ${p.outputTokens}`,
      costUsd: sql`${summaries.costUsd} + ${p.costUsd}::numeric`,
    })
    .where(
      and(
        eq(summaries.paperId, p.paperId),
        eq(summaries.lang, p.lang),
        eq(summaries.promptVersion, p.promptVersion),
        eq(summaries.status, 'ok'),
      ),
    );
}

/** Failed summaries of a prompt version: waiting for their next attempt, and failed for good (no retry time). */
export async function failedSummaryCounts(
  db: Db,
  promptVersion: string,
): Promise<{ retrying: number; gaveUp: number }> {
  const [row] = await db
    .select({
      retrying: sql<number>`count(*) filter (where ${summaries.retryAt} is not null)::int`,
      gaveUp: sql<number>`count(*) filter (where ${summaries.retryAt} is null)::int`,
    })
    .from(summaries)
    .where(and(eq(summaries.status, 'failed'), eq(summaries.promptVersion, promptVersion)));
  return { retrying: row?.retrying ?? 0, gaveUp: row?.gaveUp ?? 0 };
}

/** Of these papers, the (paper id, language) pairs whose summary row was written at or after `since` (e.g. from a batch already read once). */
export async function summarizedSince(
  db: Db,
  paperIds: readonly number[],
  promptVersion: string,
  since: Date,
): Promise<Set<string>> {
  if (paperIds.length === 0) return new Set();
  const rows = await db
    .select({ paperId: summaries.paperId, lang: summaries.lang })
    .from(summaries)
    .where(
      and(
        inArray(summaries.paperId, [...paperIds]),
        eq(summaries.promptVersion, promptVersion),
        gte(summaries.createdAt, since),
      ),
    );
  return new Set(rows.map((r) => `${r.paperId}-${r.lang}`));
}

/** Languages some enabled digest channel uses (unvalidated strings, as stored). */
export async function channelLanguages(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ language: channels.language })
    .from(channels)
    .where(eq(channels.enabled, true));
  return rows.map((r) => r.language).sort();
}

/**
 * What "the summary to show" is chosen from: the `ok` summaries (current prompt version first, then
 * the newest of older versions, so a prompt change never blanks a paper while it is re-summarised)
 * and, for Chinese, the seed notes of some papers.
 */
export async function summarySources(
  db: Db,
  paperIds: readonly number[],
  lang: string,
  promptVersion: string,
): Promise<{ summaries: Summary[]; notes: Note[] }> {
  if (paperIds.length === 0) return { summaries: [], notes: [] };
  const ids = [...paperIds];
  const [ok, zhNotes] = await Promise.all([
    db
      .select()
      .from(summaries)
      .where(and(inArray(summaries.paperId, ids), eq(summaries.lang, lang), eq(summaries.status, 'ok')))
      .orderBy(sql`${summaries.promptVersion} = ${promptVersion} desc`, desc(summaries.createdAt), desc(summaries.id)),
    lang === 'zh'
      ? db
          .select()
          .from(notes)
          .where(and(inArray(notes.paperId, ids), eq(notes.lang, 'zh')))
          .orderBy(notes.id)
      : Promise.resolve([]),
  ]);
  return { summaries: ok, notes: zhNotes };
}

export async function getSummary(
  db: Db,
  paperId: number,
  lang: string,
  promptVersion: string,
): Promise<Summary | undefined> {
  const [row] = await db
    .select()
    .from(summaries)
    .where(and(eq(summaries.paperId, paperId), eq(summaries.lang, lang), eq(summaries.promptVersion, promptVersion)));
  return row;
}

/** A Message Batch submitted but not yet collected: kept across runs so a slow batch is never paid for twice. */
export interface PendingBatch {
  id: string;
  model: string;
  /** `attempts`: the paper's failed attempts before this batch (absent in batches stored before retries existed). */
  items: { customId: string; paperId: number; lang: string; attempts?: number; upgrade?: boolean }[];
  createdAt: string;
  /** The budget reservation of its items' estimates (db/queries/spend.ts), ended once it is collected or abandoned. */
  reservation?: string | null;
}

const BATCH_KEY = 'summarize:pending-batch';

export const getPendingBatch = (db: Db): Promise<PendingBatch | undefined> => getState<PendingBatch>(db, BATCH_KEY);

export async function setPendingBatch(db: Db, batch: PendingBatch | null, now: Date): Promise<void> {
  if (batch) await setState(db, BATCH_KEY, batch, now);
  else await deleteState(db, BATCH_KEY);
}
