/**
 * The day's LLM spend: one ledger for every call that costs money (summaries, /ask answers, the
 * relevance judge), a dollar counter per UTC day in app_state (`llm-spend:<YYYY-MM-DD>`). What the
 * daily budget checks and /status shows. Each call's cost is added when it is known, once.
 *
 * Calls in flight hold reservations (`llm-reserved:<uuid>`, each with its dollars and when it lapses),
 * shared by every request and process: the cap is checked against the day's spend plus every live
 * reservation under a lock on the day's row, so thirty concurrent /ask cannot each see room for one.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { addToCounter, readCounter } from './app-state.ts';

const RESERVED = 'llm-reserved:';

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

/**
 * Reserves what calls are estimated to cost, each only while the day's spend, every live reservation
 * and the ones taken before it stay within `capUsd`: one reservation row of the taken estimates'
 * sum, lapsing after `holdMs` (a process that died mid-call cannot hold the budget for the rest of
 * the day). Returns its key (null when none was taken) and which estimates were taken. The day's row
 * is locked for the check, so concurrent reservations (any process) queue rather than both pass.
 */
export async function reserveSpend(
  db: Db,
  o: { estimatesUsd: readonly number[]; capUsd: number; now: Date; holdMs: number },
): Promise<{ key: string | null; taken: boolean[] }> {
  const day = dayKey(o.now);
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into app_state (key, value, updated_at) values (${day}, '{"n":0}'::jsonb, ${o.now.toISOString()}::timestamptz)
      on conflict (key) do nothing`);
    const [locked] = await tx.execute<{ spent: string }>(sql`
      select coalesce(value->>'n', value->>'usd', '0') as spent from app_state where key = ${day} for update`);
    await tx.execute(sql`
      delete from app_state where key like ${`${RESERVED}%`} and (value->>'until')::timestamptz <= ${o.now.toISOString()}::timestamptz`);
    const [held] = await tx.execute<{ usd: string | null }>(sql`
      select sum((value->>'usd')::numeric) as usd from app_state where key like ${`${RESERVED}%`}`);
    let room = o.capUsd - Number(locked?.spent ?? 0) - Number(held?.usd ?? 0);
    let sum = 0;
    const taken = o.estimatesUsd.map((usd) => {
      // A tiny tolerance: dollars are summed as floating point here and as numeric in Postgres.
      if (usd > room + 1e-9) return false;
      room -= usd;
      sum += usd;
      return true;
    });
    if (!taken.some(Boolean)) return { key: null, taken };
    const key = `${RESERVED}${randomUUID()}`;
    const until = new Date(o.now.getTime() + o.holdMs).toISOString();
    await tx.execute(sql`
      insert into app_state (key, value, updated_at)
      values (${key}, jsonb_build_object('usd', ${sum}::numeric, 'until', ${until}::text), ${o.now.toISOString()}::timestamptz)`);
    return { key, taken };
  });
}

/**
 * Ends a reservation, or with `partUsd` takes that much off it (one item of a batch's reservation),
 * and adds what the call really cost to the day's spend, in one transaction: the dollars are never
 * counted twice nor missing in between. No key: the cost was never reserved.
 */
export async function settleSpend(
  db: Db,
  r: { key: string | null; partUsd?: number },
  actualUsd: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (r.key && r.partUsd !== undefined)
      await tx.execute(sql`
        update app_state set value = jsonb_set(value, '{usd}', to_jsonb(greatest(0, (value->>'usd')::numeric - ${r.partUsd}::numeric)))
        where key = ${r.key}`);
    else if (r.key) await tx.execute(sql`delete from app_state where key = ${r.key}`);
    if (actualUsd > 0) await addToCounter(tx, dayKey(now), actualUsd, now);
  });
}

/** Dollars held by live reservations (what calls in flight may still cost). */
export async function reservedSpend(db: Db, now: Date): Promise<number> {
  const [row] = await db.execute<{ usd: string | null }>(sql`
    select sum((value->>'usd')::numeric) as usd from app_state
    where key like ${`${RESERVED}%`} and (value->>'until')::timestamptz > ${now.toISOString()}::timestamptz`);
  return Number(row?.usd ?? 0);
}
