/**
 * Writes one batch of people in one transaction: people upserted by id (INSERT … ON CONFLICT DO UPDATE), the
 * linked records of those that were already there deleted, then every linked record inserted. Either the whole
 * batch lands or none of it. Linked records need no conflict handling (their person's old ones are gone and
 * parse-record.ts refuses keys repeated within a person), so on PGlite they go in by COPY from a blob, which
 * measured 30 % faster than JSON; people, and everything on PostgreSQL, travel as one JSON parameter per table
 * (json_populate_recordset): one statement whatever the batch size, no parameter limit.
 */
import type { Database } from '../../../db/client';
import type { IdentityRecord } from '../record';
import { copyText } from './copy-text';
import { addRecordRows, COLUMNS, emptyRows, LINKED_TABLES, type Table, type TableRows } from './rows';

/** The little a batch needs from a connection inside its transaction. */
export interface BatchConnection {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** COPY `text` (COPY text format) into `table`, when the engine can take it from memory. */
  copy?(table: Table, text: string): Promise<void>;
}

const PEOPLE_UPDATE = COLUMNS.people
  .filter((c) => c !== 'id')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

function asJson(table: Table, rows: unknown[][]): string {
  const columns = COLUMNS[table];
  return JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]]))));
}

export function batchRows(records: IdentityRecord[]): TableRows {
  const rows = emptyRows();
  for (const r of records) addRecordRows(r, rows);
  return rows;
}

export async function writeRows(conn: BatchConnection, rows: TableRows): Promise<void> {
  const people = await conn.query<{ id: string | number; existed: boolean }>(
    `insert into people select * from json_populate_recordset(null::people, $1::json)
     on conflict (id) do update set ${PEOPLE_UPDATE} returning id, (xmax <> 0) as existed`,
    [asJson('people', rows.people)],
  );
  const existing = people.rows.filter((r) => r.existed).map((r) => r.id);
  if (existing.length > 0) {
    const ids = `{${existing.join(',')}}`;
    for (const table of LINKED_TABLES) {
      await conn.query(`delete from ${table} where identity_id = any($1::bigint[])`, [ids]);
    }
  }
  for (const table of LINKED_TABLES) {
    if (rows[table].length === 0) continue;
    if (conn.copy) await conn.copy(table, copyText(rows[table]));
    else {
      await conn.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
        asJson(table, rows[table]),
      ]);
    }
  }
}

/** Runs `fn` in one transaction on the engine's own client. */
async function inTransaction(database: Database, fn: (conn: BatchConnection) => Promise<void>): Promise<void> {
  const raw = database.raw;
  if (raw.kind === 'pglite') {
    await raw.client.transaction((tx) =>
      fn({
        query: (text, params) => tx.query(text, params),
        copy: async (table, text) => {
          await tx.query(`copy ${table} (${COLUMNS[table].join(', ')}) from '/dev/blob'`, [], {
            blob: new Blob([text]),
          });
        },
      }),
    );
    return;
  }
  const client = await raw.pool.connect();
  try {
    await client.query('begin');
    await fn({ query: (text, params) => client.query(text, params) as never });
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Writes `records` (distinct ids) in one transaction. */
export async function writeBatch(database: Database, records: IdentityRecord[]): Promise<void> {
  const rows = batchRows(records);
  await inTransaction(database, (conn) => writeRows(conn, rows));
}
