/**
 * State of `/ask`, all in `app_state` (no schema change):
 * - `ask:<key>`: a question and the ids of the papers retrieved for it, for the follow-up buttons
 *   (a question may be 500 characters, more than a custom id carries);
 * - `ask-rate:<user>:<UTC hour>`: how many questions a user asked in that hour (a fixed window);
 * - `llm-spend:<UTC day>`: dollars spent on LLM calls that are not summaries (answers to /ask), which
 *   `spendToday` adds to the summaries' spend so one daily budget covers both.
 */
import { createHash } from 'node:crypto';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { appState } from '../schema.ts';

export interface SavedAsk {
  question: string;
  since: string | null;
  topic: string | null;
  paperIds: number[];
  createdAt: string;
}

const ASK = 'ask:';
const RATE = 'ask-rate:';
export const SPEND = 'llm-spend:';
const KEEP_DAYS = 30;

/** The key of one question with its filters and retrieved papers (12 base64url characters). */
export function askStateKey(a: Pick<SavedAsk, 'question' | 'since' | 'topic' | 'paperIds'>): string {
  return createHash('sha256').update(JSON.stringify([a.question, a.since, a.topic, a.paperIds])).digest('base64url').slice(0, 12);
}

/** Stores (or refreshes) a question and what was retrieved for it; returns its key. Old ones are removed. */
export async function saveAsk(db: Db, a: Omit<SavedAsk, 'createdAt'>, now: Date): Promise<string> {
  const key = askStateKey(a);
  const value: SavedAsk = { ...a, createdAt: now.toISOString() };
  await db.insert(appState).values({ key: ASK + key, value, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { updatedAt: now } });
  const cutoff = new Date(now.getTime() - KEEP_DAYS * 86_400_000);
  await db.delete(appState).where(and(like(appState.key, `${ASK}%`), lt(appState.updatedAt, cutoff)));
  return key;
}

export async function loadAsk(db: Db, key: string): Promise<SavedAsk | undefined> {
  const [row] = await db.select().from(appState).where(eq(appState.key, ASK + key));
  return row?.value as SavedAsk | undefined;
}

const hourKey = (userId: string, now: Date) => `${RATE}${userId}:${now.toISOString().slice(0, 13)}`;

/**
 * Counts one question for a user in the current UTC hour, unless they already asked `max`: one
 * atomic upsert, so concurrent questions cannot both pass the limit. Returns whether it was counted.
 */
export async function takeAskSlot(db: Db, userId: string, max: number, now: Date): Promise<boolean> {
  if (max <= 0) return false;
  const rows = await db.execute<{ n: number }>(sql`
    insert into app_state (key, value, updated_at) values (${hourKey(userId, now)}, '{"n":1}'::jsonb, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = jsonb_build_object('n', (app_state.value->>'n')::int + 1), updated_at = excluded.updated_at
      where (app_state.value->>'n')::int < ${max}
    returning (value->>'n')::int as n`);
  const counted = rows.length > 0;
  if (counted) await db.delete(appState).where(and(like(appState.key, `${RATE}%`), lt(appState.updatedAt, new Date(now.getTime() - 2 * 3_600_000))));
  return counted;
}

/** Adds what a non-summary LLM call cost to today's (UTC) spend. */
export async function recordLlmSpend(db: Db, usd: number, now: Date): Promise<void> {
  if (!(usd > 0)) return;
  const key = SPEND + now.toISOString().slice(0, 10);
  await db.execute(sql`
    insert into app_state (key, value, updated_at) values (${key}, jsonb_build_object('usd', ${usd}::numeric), ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = jsonb_build_object('usd', (app_state.value->>'usd')::numeric + ${usd}::numeric), updated_at = excluded.updated_at`);
}

/** Dollars recorded by `recordLlmSpend` for the UTC day of `now`. */
export async function otherLlmSpend(db: Db, now: Date): Promise<number> {
  const [row] = await db.select().from(appState).where(eq(appState.key, SPEND + now.toISOString().slice(0, 10)));
  return Number((row?.value as { usd?: number | string } | undefined)?.usd ?? 0);
}
