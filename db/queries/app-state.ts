/**
 * `app_state`: the one small key/value table, and every way it is used, in one place.
 * - settings the app remembers (`getState`/`setState`): the registered commands' hash, the classifier
 *   rules version, a pending summary batch;
 * - saved values that expire (`saveExpiring`/`loadSaved`): what a button needs but a custom id cannot
 *   carry (a 300-character query, a question and its retrieved papers). The key is a short hash of the
 *   value, so saving the same thing twice gives the same key; values unused for `keepDays` are removed
 *   whenever another of the same kind is saved. Stored in Postgres, so a press works on any replica;
 * - counters (`takeSlot`, `addToCounter`/`readCounter`): per-user rate limits and the day's LLM spend
 *   outside summaries, each one atomic upsert so concurrent callers cannot both pass a limit.
 */
import { createHash } from 'node:crypto';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { appState } from '../schema.ts';

export async function getState<T>(db: DbOrTx, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, key));
  return row?.value as T | undefined;
}

export async function setState(db: DbOrTx, key: string, value: unknown, now: Date): Promise<void> {
  await db
    .insert(appState)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: now } });
}

export async function deleteState(db: DbOrTx, key: string): Promise<void> {
  await db.delete(appState).where(eq(appState.key, key));
}

/** A stable 12-character key for what identifies a saved value (base64url of its hash). */
export function stateKey(identity: string): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 12);
}

/**
 * Saves (or refreshes) a value of a kind (`search`, `ask`) under the key of `identity` (what makes two
 * values the same); returns the key. Old values of that kind are removed.
 */
export async function saveExpiring(
  db: Db,
  kind: string,
  identity: string,
  value: object,
  now: Date,
  keepDays = 30,
): Promise<string> {
  const key = stateKey(identity);
  await db
    .insert(appState)
    .values({ key: `${kind}:${key}`, value: { ...value, createdAt: now.toISOString() }, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { updatedAt: now } });
  await db
    .delete(appState)
    .where(
      and(like(appState.key, `${kind}:%`), lt(appState.updatedAt, new Date(now.getTime() - keepDays * 86_400_000))),
    );
  return key;
}

export async function loadSaved<T>(
  db: Db,
  kind: string,
  key: string,
): Promise<(T & { createdAt: string }) | undefined> {
  return getState<T & { createdAt: string }>(db, `${kind}:${key}`);
}

/**
 * Counts one use of `key` unless it already reached `max`; returns whether it was counted. Counters
 * of the same `kind` not touched for `keepMs` are removed.
 */
export async function takeSlot(
  db: Db,
  kind: string,
  key: string,
  max: number,
  now: Date,
  keepMs: number,
): Promise<boolean> {
  if (max <= 0) return false;
  const rows = await db.execute<{ n: number }>(sql`
    insert into app_state (key, value, updated_at) values (${`${kind}:${key}`}, '{"n":1}'::jsonb, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = jsonb_build_object('n', (app_state.value->>'n')::int + 1), updated_at = excluded.updated_at
      where (app_state.value->>'n')::int < ${max}
    returning (value->>'n')::int as n`);
  const counted = rows.length > 0;
  if (counted)
    await db
      .delete(appState)
      .where(and(like(appState.key, `${kind}:%`), lt(appState.updatedAt, new Date(now.getTime() - keepMs))));
  return counted;
}

/** Adds an amount to a numeric counter (e.g. dollars spent today). */
export async function addToCounter(db: DbOrTx, key: string, amount: number, now: Date): Promise<void> {
  await db.execute(sql`
    insert into app_state (key, value, updated_at) values (${key}, jsonb_build_object('n', ${amount}::numeric), ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = jsonb_build_object('n', coalesce(app_state.value->>'n', app_state.value->>'usd', '0')::numeric + ${amount}::numeric),
      updated_at = excluded.updated_at`);
}

/** A counter's value (rows written before counters were unified kept dollars under `usd`). */
export async function readCounter(db: Db, key: string): Promise<number> {
  const v = await getState<{ n?: number | string; usd?: number | string }>(db, key);
  return Number(v?.n ?? v?.usd ?? 0);
}
