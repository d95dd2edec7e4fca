/** Applies the SQL migrations from code, on both engines (drizzle-kit's own migrate fails on PGlite extensions). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgSession } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Database } from './client';

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Several processes may start against one PostgreSQL at once; an advisory lock lets one migrate at a time. */
const MIGRATION_LOCK = 727_274_001;

export async function migrate(database: Database): Promise<void> {
  const raw = database.raw;
  if (raw.kind === 'pglite') {
    await migratePglite(drizzlePglite({ client: raw.client }), { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  const migrations = readMigrationFiles(config);
  // A connection of its own, outside the pool's statement time limits: a migration may rewrite a big table.
  const client = new pg.Client({ connectionString: raw.url });
  await client.connect();
  try {
    // The lock is the transaction's (decision 0042): behind PgBouncer in transaction mode a session lock and its
    // unlock may reach different server connections, and a lock left behind kept every node from starting.
    // drizzle's migrate reads the journal before opening its own transaction, so it runs whole inside this one,
    // its transaction a savepoint here: the second process reads the journal only once the first has committed.
    await drizzlePg({ client }).transaction(async (tx) => {
      // Role defaults (pool mode transaction) would otherwise limit this connection like the server's.
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const session: PgSession = Object.create(tx._.session, {
        transaction: { value: (fn: Parameters<typeof tx.transaction>[0]) => tx.transaction(fn) },
      });
      await new PgDialect().migrate(migrations, session, config);
    });
  } finally {
    await client.end();
  }
}
