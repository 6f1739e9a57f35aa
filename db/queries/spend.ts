/**
 * The day's LLM spend: one ledger for every call that costs money (summaries, /ask answers, the
 * relevance judge), a dollar counter per UTC day in app_state (`llm-spend:<YYYY-MM-DD>`). What the
 * daily budget checks and /status shows. Each call's cost is added when it is known, once.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { addToCounter, readCounter } from './app-state.ts';

const dayKey = (now: Date) => `llm-spend:${now.toISOString().slice(0, 10)}`;

/** Adds what a call (or a paper's attempts) cost to the UTC day containing `now`. */
export async function recordSpend(db: Db, usd: number, now: Date): Promise<void> {
  if (usd > 0) await addToCounter(db, dayKey(now), usd, now);
}

/** Dollars spent on LLM calls during the UTC day containing `now`. */
export const spendToday = (db: Db, now: Date): Promise<number> => readCounter(db, dayKey(now));

/** Dollars spent on LLM calls over every day the ledger holds (rows written before counters were unified kept dollars under `usd`). */
export async function spendTotal(db: Db): Promise<number> {
  const rows = await db.execute<{ usd: string | null }>(sql`
    select sum(coalesce(value->>'n', value->>'usd', '0')::numeric) as usd from app_state where key like 'llm-spend:%'`);
  return Number(rows[0]?.usd ?? 0);
}
