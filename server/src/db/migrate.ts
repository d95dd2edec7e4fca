/** Applies the SQL migrations from code, on both engines (drizzle-kit's own migrate fails on PGlite extensions). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
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
  // A connection of its own, outside the pool's statement time limits: a migration may rewrite a big table.
  const client = new pg.Client({ connectionString: raw.url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}
