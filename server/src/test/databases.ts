/** Throwaway PostgreSQL databases for test runs: created from a base URL, dropped when done. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database on the server of `baseUrl`. Without the CREATEDB right it falls back to the base
 * database itself (and `drop` does nothing), so tests must isolate by fresh rows anyway.
 */
export async function scratchDatabase(baseUrl: string, label: string): Promise<ScratchDatabase> {
  const name = `tessera_${label}_${randomBytes(5).toString('hex')}`;
  try {
    await withClient(baseUrl, (c) => c.query(`create database ${name}`));
  } catch (err) {
    console.warn(`Could not create a scratch database (${(err as Error).message}); using the base database.`);
    return { url: baseUrl, drop: async () => {} };
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(baseUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
