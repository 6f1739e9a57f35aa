import postgres, { type Sql } from 'postgres';

/**
 * A connection of its own for a session-level advisory lock, ended (which releases the lock) rather
 * than unlocked and handed back to the pool: a pooled connection reserved for a lock that dies with
 * the server would go back to the pool dead and fail every query sent to it afterwards.
 */
function lockSession(sql: Sql): Sql {
  // The parsed options hide the password from their type, and hold hosts and ports as lists (multi-host URLs), which the driver accepts.
  const o = sql.options as unknown as {
    host: string[];
    port: number[];
    path?: string | false;
    database: string;
    user: string;
    pass?: string;
    ssl: postgres.Options<Record<string, never>>['ssl'];
    socket?: unknown;
  };
  return postgres({
    host: o.host,
    port: o.port,
    ...(o.path ? { path: o.path } : {}),
    database: o.database,
    user: o.user,
    pass: o.pass,
    ssl: o.ssl,
    // The pool's own way to reach a server that moves (the embedded one, restarted on another port).
    ...(o.socket ? { socket: o.socket } : {}),
    max: 1,
    connect_timeout: 10,
    onnotice: () => {},
  } as unknown as postgres.Options<Record<string, never>>);
}

/**
 * Runs `fn` while this process holds a Postgres advisory lock, on a session of its own (session
 * locks belong to a connection, not a pool). When another session holds the lock, `fn` is not run:
 * replicas skip, they do not queue.
 */
export async function withTryLock<T>(
  sql: Sql,
  key: number,
  fn: () => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  const session = lockSession(sql);
  try {
    const [row] = await session<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
    if (!row?.locked) return { locked: false };
    return { locked: true, value: await fn() };
  } finally {
    await session.end({ timeout: 5 });
  }
}

/**
 * Runs `fn` while holding a Postgres advisory lock, waiting for it when another session holds it
 * (two first starts on one database: the second migrates and seeds after the first, and finds it done).
 */
export async function withLock<T>(sql: Sql, key: number, fn: () => Promise<T>): Promise<T> {
  const session = lockSession(sql);
  try {
    await session`select pg_advisory_lock(${key})`;
    return await fn();
  } finally {
    await session.end({ timeout: 5 });
  }
}
