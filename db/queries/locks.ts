import type { Sql } from 'postgres';

/**
 * Runs `fn` while this session holds a Postgres advisory lock, on a connection reserved for it
 * (session locks belong to a connection, not a pool). When another session holds the lock, `fn` is
 * not run: replicas skip, they do not queue.
 */
export async function withTryLock<T>(sql: Sql, key: number, fn: () => Promise<T>): Promise<{ locked: true; value: T } | { locked: false }> {
  const conn = await sql.reserve();
  try {
    const [row] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
    if (!row?.locked) return { locked: false };
    try {
      return { locked: true, value: await fn() };
    } finally {
      await conn`select pg_advisory_unlock(${key})`;
    }
  } finally {
    conn.release();
  }
}
