import { connect } from 'node:net';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema.ts';

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction; query functions that may run inside one take `DbOrTx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  /** The raw postgres.js client, for the few queries drizzle cannot express. */
  sql: postgres.Sql;
  close(): Promise<void>;
}

export interface PoolOptions {
  max?: number;
  /** How the server sees these connections (pg_stat_activity's application_name). */
  applicationName?: string;
  /**
   * Where to connect, asked at each new connection instead of the URL's host and port: a server that
   * moves (the embedded one, restarted on another port) keeps the pool, which reconnects to it.
   */
  target?: () => { host: string; port: number };
}

/** Opens a connection pool. No module-level singleton: the composition root owns the handle. */
export function createDb(url: string, opts: PoolOptions = {}): DbHandle {
  const { target } = opts;
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connect_timeout: 10,
    ...(opts.applicationName && { connection: { application_name: opts.applicationName } }),
    ...(target && {
      socket: () => {
        const { host, port } = target();
        return connect(port, host);
      },
      // The driver waits up to 20 s between attempts after many failures; a local server is back in seconds.
      backoff: (retries: number) => Math.min(0.1 * 2 ** retries, 2),
    }),
  });
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
