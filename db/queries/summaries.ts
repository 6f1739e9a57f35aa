import { and, desc, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { addToCounter, deleteState, getState, readCounter, setState } from './app-state.ts';
import { channels, notes, papers, summaries, type Note, type Paper, type Summary } from '../schema.ts';
export type NewSummary = typeof summaries.$inferInsert;

/**
 * GRPO-family papers with an abstract and no final summary (ok or failed) for this language and prompt version,
 * newest news first, then newest seen. A failed paper is not retried under the same prompt version:
 * its answer was malformed twice, and trying again daily would only spend money. Papers known only by
 * title are left out: a summary of a title alone would be invented.
 */
export async function pendingPapers(db: Db, p: { lang: string; promptVersion: string; limit: number }): Promise<Paper[]> {
  return db
    .select()
    .from(papers)
    .where(and(
      eq(papers.grpoFamily, true),
      ne(papers.abstract, ''),
      notExists(db.select({ one: sql`1` }).from(summaries).where(and(
        eq(summaries.paperId, papers.id), eq(summaries.lang, p.lang), eq(summaries.promptVersion, p.promptVersion),
        inArray(summaries.status, ['ok', 'failed']),
      ))),
    ))
    .orderBy(sql`${papers.newsAt} desc nulls last`, desc(papers.firstSeenAt), desc(papers.id))
    .limit(p.limit);
}

/**
 * Stores a summary once per paper + language + prompt version. An existing `ok` or `failed` row is
 * kept (never regenerated); a stored `fallback` row is replaced by the LLM's answer.
 * Returns whether the row was written.
 */
export async function saveSummary(db: Db, row: NewSummary & { createdAt: Date }): Promise<boolean> {
  const written = await db
    .insert(summaries)
    .values(row)
    .onConflictDoUpdate({
      target: [summaries.paperId, summaries.lang, summaries.promptVersion],
      set: {
        status: row.status, model: row.model ?? null, content: row.content ?? null, error: row.error ?? null,
        inputTokens: row.inputTokens ?? 0, outputTokens: row.outputTokens ?? 0, cacheReadTokens: row.cacheReadTokens ?? 0,
        cacheWriteTokens: row.cacheWriteTokens ?? 0, costUsd: row.costUsd ?? '0', createdAt: row.createdAt,
      },
      setWhere: eq(summaries.status, 'fallback'),
    })
    .returning({ id: summaries.id });
  return written.length > 0;
}

/** Start of the UTC day containing `now`. */
const utcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * Dollars spent on LLM calls during the UTC day containing `now` (what /status shows and the budget
 * checks): summaries, the relevance judge's calls, and the answers to /ask recorded by recordLlmSpend.
 */
export async function spendToday(db: Db, now: Date): Promise<number> {
  const start = utcDay(now);
  const end = new Date(start.getTime() + 86_400_000);
  const [row] = await db.execute<{ usd: string }>(sql`
    select (coalesce((select sum(cost_usd) from summaries where created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz), 0)
      + coalesce((select sum(cost_usd) from family_judgements where created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz), 0))::text as usd`);
  return Number(row?.usd ?? 0) + (await otherLlmSpend(db, now));
}

/** Languages some enabled digest channel uses (unvalidated strings, as stored). */
export async function channelLanguages(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ language: channels.language }).from(channels).where(eq(channels.enabled, true));
  return rows.map((r) => r.language).sort();
}

/**
 * What "the summary to show" is chosen from: the `ok` summaries (current prompt version first, then
 * the newest of older versions, so a prompt change never blanks a paper while it is re-summarised)
 * and, for Chinese, the seed notes of some papers.
 */
export async function summarySources(db: Db, paperIds: readonly number[], lang: string, promptVersion: string): Promise<{ summaries: Summary[]; notes: Note[] }> {
  if (paperIds.length === 0) return { summaries: [], notes: [] };
  const ids = [...paperIds];
  const [ok, zhNotes] = await Promise.all([
    db.select().from(summaries)
      .where(and(inArray(summaries.paperId, ids), eq(summaries.lang, lang), eq(summaries.status, 'ok')))
      .orderBy(sql`${summaries.promptVersion} = ${promptVersion} desc`, desc(summaries.createdAt), desc(summaries.id)),
    lang === 'zh' ? db.select().from(notes).where(and(inArray(notes.paperId, ids), eq(notes.lang, 'zh'))).orderBy(notes.id) : Promise.resolve([]),
  ]);
  return { summaries: ok, notes: zhNotes };
}

export async function getSummary(db: Db, paperId: number, lang: string, promptVersion: string): Promise<Summary | undefined> {
  const [row] = await db.select().from(summaries)
    .where(and(eq(summaries.paperId, paperId), eq(summaries.lang, lang), eq(summaries.promptVersion, promptVersion)));
  return row;
}

/** A Message Batch submitted but not yet collected: kept across runs so a slow batch is never paid for twice. */
export interface PendingBatch {
  id: string;
  model: string;
  items: { customId: string; paperId: number; lang: string }[];
  createdAt: string;
}

const BATCH_KEY = 'summarize:pending-batch';

export const getPendingBatch = (db: Db): Promise<PendingBatch | undefined> => getState<PendingBatch>(db, BATCH_KEY);

export async function setPendingBatch(db: Db, batch: PendingBatch | null, now: Date): Promise<void> {
  if (batch) await setState(db, BATCH_KEY, batch, now);
  else await deleteState(db, BATCH_KEY);
}

/** LLM calls that are not summaries (answers to /ask) count against the same daily budget: dollars per UTC day. */
const otherSpendKey = (now: Date) => `llm-spend:${now.toISOString().slice(0, 10)}`;

/** Adds what a non-summary LLM call cost to today's (UTC) spend. */
export async function recordLlmSpend(db: Db, usd: number, now: Date): Promise<void> {
  if (usd > 0) await addToCounter(db, otherSpendKey(now), usd, now);
}

export const otherLlmSpend = (db: Db, now: Date): Promise<number> => readCounter(db, otherSpendKey(now));

