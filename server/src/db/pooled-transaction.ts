/**
 * Transactions on the PostgreSQL pool, each on a client of its own. Not drizzle's own transaction on the pool: it
 * sends `begin` before its try/finally, so a `begin` that failed (a connection lost, or PgBouncer refusing while the
 * server is away) left its client checked out for good, and after an outage the pool ran dry and stayed so (seen
 * through PgBouncer, decision 0042).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db, Tx } from './client';
import { databaseFault } from './faults';
import * as schema from './schema';

/** drizzle on one pool client, made once per client: it builds its relational config from the whole schema. */
const onClient = new WeakMap<pg.PoolClient, Db>();

export async function pooledTransaction<T>(pool: pg.Pool, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let db = onClient.get(client);
  if (!db) {
    db = drizzle({ client, schema }) as unknown as Db;
    onClient.set(client, db);
  }
  let fault: Error | undefined;
  try {
    return await db.transaction(fn);
  } catch (err) {
    // A connection that failed, or may still be running a statement that timed out, is not handed to the next caller.
    if (databaseFault(err)) fault = err as Error;
    throw err;
  } finally {
    client.release(fault);
  }
}
