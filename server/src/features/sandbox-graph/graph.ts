/**
 * The sandbox (issue 31): what test keys read. A fixed, public, synthetic graph of SANDBOX_PEOPLE people made by the
 * generator from its own seed, kept in the schema `sandbox_graph` beside the real tables (migration 0032) and
 * read with `search_path = sandbox_graph, public`, so a test key runs the live path's very statements on other
 * tables and can never reach a real person. Its ids start at SANDBOX_FIRST_ID, far above any graph of ours, so an id
 * copied from a live reply finds nobody here. Loaded once per database by whichever process starts first
 * (decision 0059).
 */
import type { Database } from '../../db/client';
import { generatedRows } from '../people/import/seed';
import { type BatchConnection, batchRows, writeRows } from '../people/import/write-batch';
import type { IdentityRecord } from '../people/record';

export const SANDBOX_SCHEMA = 'sandbox_graph';
export const SANDBOX_SEED = 'sandbox-1';
export const SANDBOX_PEOPLE = 1000;
export const SANDBOX_FIRST_ID = 9_000_000_000_000_001;

/** Whoever loads the sandbox holds this (per transaction: PgBouncer-safe) so that two processes never both load it. */
const LOAD_LOCK = 727_274_031;
const BATCH = 250;

/** The database as a test key sees it: every statement resolves the graph's tables in the sandbox schema. */
export function sandboxView(database: Database): Database {
  return {
    ...database,
    query: (text, params, options) => database.query(text, params, { ...options, searchPath: SANDBOX_SCHEMA }),
  };
}

/** The sandbox's people, as the generator makes them: the same on every machine. */
export function* sandboxRecords(): Generator<IdentityRecord> {
  for (const row of generatedRows(SANDBOX_PEOPLE, SANDBOX_SEED, SANDBOX_FIRST_ID))
    if ('record' in row) yield row.record;
}

/** Runs `fn` on one connection inside one transaction, with the sandbox schema first on the search path. */
async function inSandboxTransaction(database: Database, fn: (conn: BatchConnection) => Promise<void>): Promise<void> {
  const setPath = `set local search_path = ${SANDBOX_SCHEMA}, public`;
  const raw = database.raw;
  if (raw.kind === 'pglite') {
    await raw.client.transaction(async (tx) => {
      await tx.query(setPath);
      await fn({ query: (text, params) => tx.query(text, params) });
    });
    return;
  }
  const client = await raw.pool.connect();
  let broken = false;
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query(`begin; ${setPath}`);
    await fn({
      query: async <T>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as T[] }),
    });
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

/**
 * Loads the sandbox when it is empty, whole or not at all (one transaction), and says whether it did. Every process
 * calls it at start; the first takes the lock, the others wait for its commit and find the people there.
 */
export async function ensureSandboxGraph(database: Database): Promise<boolean> {
  const [found] = await database.query<{ any: boolean }>(
    `select exists (select 1 from ${SANDBOX_SCHEMA}.people) as any`,
  );
  if (found?.any) return false;
  let loaded = false;
  await inSandboxTransaction(database, async (conn) => {
    await conn.query(`select pg_advisory_xact_lock(${LOAD_LOCK})`);
    const { rows } = await conn.query<{ any: boolean }>('select exists (select 1 from people) as any');
    if (rows[0]?.any) return;
    let batch: IdentityRecord[] = [];
    for (const record of sandboxRecords()) {
      batch.push(record);
      if (batch.length === BATCH) {
        await writeRows(conn, batchRows(batch));
        batch = [];
      }
    }
    if (batch.length > 0) await writeRows(conn, batchRows(batch));
    loaded = true;
  });
  return loaded;
}
