/**
 * Saved searches for the paging buttons of `/paper search`. A query may be 300 characters, more
 * than a button's custom id can carry, so the query is stored in `app_state` under
 * `search:<key>` (a short hash of query and page size) and the button carries the key. Stored in
 * Postgres, so a press works on any replica and after a restart.
 */
import { createHash } from 'node:crypto';
import { and, eq, like, lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { appState } from '../schema.ts';

export interface SavedSearch {
  query: string;
  limit: number;
  createdAt: string;
}

/** Saved searches unused for this long are removed when another is saved. */
const KEEP_DAYS = 30;
const PREFIX = 'search:';

/** The key of a query and page size: the same search always gets the same key (12 base64url characters). */
export function searchStateKey(query: string, limit: number): string {
  return createHash('sha256').update(`${limit}|${query}`).digest('base64url').slice(0, 12);
}

/** Stores (or refreshes) a search; returns its key. */
export async function saveSearch(db: Db, query: string, limit: number, now: Date): Promise<string> {
  const key = searchStateKey(query, limit);
  const value: SavedSearch = { query, limit, createdAt: now.toISOString() };
  await db.insert(appState).values({ key: PREFIX + key, value, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { updatedAt: now } });
  const cutoff = new Date(now.getTime() - KEEP_DAYS * 86_400_000);
  await db.delete(appState).where(and(like(appState.key, `${PREFIX}%`), lt(appState.updatedAt, cutoff)));
  return key;
}

export async function loadSearch(db: Db, key: string): Promise<SavedSearch | undefined> {
  const [row] = await db.select().from(appState).where(eq(appState.key, PREFIX + key));
  return row?.value as SavedSearch | undefined;
}
