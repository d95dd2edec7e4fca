/**
 * The PostgreSQL batch writer (docs/decisions/0012-import-copy.md): every row travels by COPY FROM STDIN on one
 * connection held for the whole load. Per batch, in one transaction:
 *
 * 1. Which of the batch's people are already there (one primary-key probe for the batch).
 * 2. New people and their linked records are COPYed straight into the real tables (nothing to replace).
 * 3. People already there are COPYed into per-connection temporary staging tables, then merged: the person is
 *    upserted (`ON CONFLICT DO UPDATE`, which locks the row even when nothing changed), their linked rows that
 *    the new record no longer has exactly are deleted, and staged rows not already there are inserted. The end
 *    state is the old delete-and-reinsert's, but an unchanged re-import writes nothing.
 *
 * Apart from the COPYs a batch is two round trips: the opening statements with the probe, and the merge with
 * the commit, each one multi-statement query.
 *
 * When the connection may (superuser), the transaction runs with `session_replication_role = replica`, which
 * skips the per-row foreign-key check triggers (more than half of PostgreSQL's work in a load; the tables have
 * no other triggers). The linked rows written reference only people written or row-locked earlier in the same
 * transaction, so the check cannot fail; a concurrent delete of such a person waits for the commit and then
 * cascades as usual.
 *
 * Bulk mode (a big first load, see startBulk) makes the whole load one transaction, batches savepoints in it.
 */
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { LOCK_SUPPRESSIONS, storeRecordsSql } from '../../identities/record-sql';
import type { IdentityRecord } from '../record';
import { assertWellFormed, COPY_TABLES, personCopy } from './copy-text';
import { COLUMNS, LINKED_TABLES, type LinkedTable, type Table } from './rows';
import type { PreparedPerson } from './source';

/** A person to write: the record, or (PostgreSQL only) its COPY text prepared by a parsing worker. */
export type BatchItem = IdentityRecord | PreparedPerson;

export const isPrepared = (item: BatchItem): item is PreparedPerson => 'copy' in item;

export interface BatchWriter {
  /** Writes `items` (distinct ids) in one transaction (a savepoint in bulk mode): all of it or nothing. */
  write(items: BatchItem[]): Promise<void>;
  /** After the last write of a load that went through: commits a bulk load. */
  finish(): Promise<void>;
  /** Gives the connection back; a bulk load not finished is rolled back. */
  close(): Promise<void>;
}

export interface PgWriterOptions {
  /**
   * Skip the per-row foreign-key triggers of the linked tables when the role may (see above). Default true; it
   * is ignored without the privilege.
   */
  skipForeignKeyTriggers?: boolean;
  /**
   * Bulk mode, for a first load into an empty database: when `people` is empty, the whole load is one
   * transaction holding every table locked, with the secondary indexes dropped and built again at finish()
   * (see startBulk). When `people` has rows, the load runs as usual.
   */
  bulk?: boolean;
}

const TABLES = COPY_TABLES;
const INDEX = new Map(TABLES.map((t, i) => [t, i]));
const stage = (table: Table) => `pg_temp.import_${table}`;
const list = (table: Table, alias?: string) => COLUMNS[table].map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

const UPSERT_PEOPLE = (() => {
  const columns = COLUMNS.people;
  const set = columns
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `insert into people as p (${list('people')}) select ${list('people')} from ${stage('people')}
    on conflict (id) do update set ${set}
    where (${list('people', 'p')}) is distinct from (${list('people', 'excluded')})`;
})();

/** Past this many runs of consecutive ids, one `= any(array)` is simpler to plan than that many ranges. */
const MAX_RANGES = 32;

/**
 * SQL matching a column to `ids` (given the column), inlined (numbers only: no quote can get in), so a batch's merge can travel as
 * one multi-statement query. Runs of consecutive ids become ranges: files usually list people in id order, and
 * one index range scan per run is some twenty times cheaper than the index descent per id of `= any(array)`
 * (PostgreSQL 15), which made those lookups most of an unchanged re-import's cost.
 */
export function idMatch(ids: Iterable<number>): (column: string) => string {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const id of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && id <= last[1] + 1) last[1] = id;
    else ranges.push([id, id]);
  }
  if (ranges.length === 0) return () => 'false';
  if (ranges.length > MAX_RANGES) {
    const array = `'{${sorted.join(',')}}'::bigint[]`;
    return (column) => `${column} = any(${array})`;
  }
  return (column) => {
    const each = ranges.map(([a, b]) => (a === b ? `${column} = ${a}` : `${column} between ${a} and ${b}`));
    return each.length === 1 ? each[0]! : `(${each.join(' or ')})`;
  };
}

/** A linked row of a person already there is kept only when the new record has it exactly. */
const DELETE_CHANGED = (table: LinkedTable, match: (column: string) => string) =>
  `delete from ${table} t where ${match('t.identity_id')} and not exists (
     select 1 from ${stage(table)} s
     where s.identity_id = t.identity_id and (${list(table, 's')}) is not distinct from (${list(table, 't')}))`;

const INSERT_MISSING = (table: LinkedTable, match: (column: string) => string) =>
  `insert into ${table} (${list(table)}) select ${list(table, 's')} from ${stage(table)} s
   where not exists (
     select 1 from ${table} t
     where ${match('t.identity_id')} and t.identity_id = s.identity_id
       and (${list(table, 't')}) is not distinct from (${list(table, 's')}))`;

/**
 * Keys that only PostgreSQL sees as equal: parse-record.ts refuses a key listed twice, but two spellings of one
 * IPv6 address (`::1`, `0::1`) are one inet. Written blind, such rows break the primary key and the person is
 * rejected; merged, both would be skipped when the person already has that row, so the merge checks.
 */
const CHECK_REPEATED_IP = `do $$
  declare r record;
  begin
    select identity_id::text as id, host(ip) as ip into r from ${stage('person_ips')}
      group by identity_id, ip having count(*) > 1 limit 1;
    if found then raise exception 'person %: ip % listed twice (written two ways)', r.id, r.ip; end if;
  end $$`;

async function copyInto(client: pg.PoolClient, target: string, table: Table, text: string): Promise<void> {
  assertWellFormed(text);
  const stream = client.query(copyFrom(`copy ${target} (${list(table)}) from stdin`));
  stream.end(text);
  await finished(stream);
}

/** Secondary indexes (neither primary key nor unique) of the tables a load writes, as CREATE statements. */
const SECONDARY_INDEXES = `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def
  from pg_index where indrelid = any(array[${TABLES.map((t) => `'${t}'::regclass`).join(', ')}])
    and not indisprimary and not indisunique order by indexrelid`;

/** The load cannot go on (bulk mode lost its transaction): importRows stops instead of retrying row by row. */
export class LoadAborted extends Error {}

export async function openPgWriter(pool: pg.Pool, options: PgWriterOptions = {}): Promise<BatchWriter> {
  let client: pg.PoolClient | null = null;
  let broken = false;
  let skipTriggers = false;
  /** Bulk mode: the whole load's transaction is open, with these indexes dropped until finish(). */
  let bulk: { indexes: { name: string; def: string }[] } | null = null;
  let bulkTried = false;
  /** The connection of a bulk load went away, and its transaction (every batch so far) with it. */
  let bulkLost = false;
  const onError = () => {
    broken = true;
  };

  /** The load's connection with its staging tables, (re)connected after a connection was lost. */
  async function connection(): Promise<pg.PoolClient> {
    if (client) return client;
    if (bulkLost) throw new LoadAborted('the connection of a bulk load was lost');
    const c = await pool.connect();
    c.on('error', onError);
    broken = false;
    try {
      // Staging tables live in local buffers (8 MB by default); it can only be set before the session's first
      // use of a temporary table, so a connection that already used one keeps its value.
      await c.query("set temp_buffers = '64MB'").catch(() => {});
      for (const table of TABLES) {
        await c.query(
          `create temporary table if not exists import_${table} on commit delete rows as
           select ${list(table)} from ${table} with no data`,
        );
      }
      const { rows } = await c.query<{ allowed: boolean }>("select current_setting('is_superuser') = 'on' as allowed");
      skipTriggers = (options.skipForeignKeyTriggers ?? true) && rows[0]!.allowed;
      if (options.bulk && !bulkTried) {
        bulkTried = true;
        bulk = await startBulk(c);
      }
    } catch (err) {
      c.off('error', onError);
      c.release(true);
      throw err;
    }
    client = c;
    return c;
  }

  /**
   * Opens the load's one transaction when `people` is empty: all tables locked, secondary indexes dropped (to be
   * built once at the end, which measured twice as fast as maintaining them row by row on a million people).
   * DROP INDEX is transactional: whatever ends the transaction without finish() (an error, a lost connection,
   * a killed process) brings the indexes back with the rows. Null, with nothing changed, when `people` has rows.
   */
  async function startBulk(c: pg.PoolClient): Promise<typeof bulk> {
    await c.query(
      `begin; set local synchronous_commit = off; set local maintenance_work_mem = '256MB';
       ${skipTriggers ? 'set local session_replication_role = replica;' : ''}
       lock table ${TABLES.join(', ')} in access exclusive mode`,
    );
    try {
      const taken = await c.query('select 1 from people limit 1');
      if (taken.rows.length > 0) {
        await c.query('rollback');
        return null;
      }
      const { rows: indexes } = await c.query<{ name: string; def: string }>(SECONDARY_INDEXES);
      if (indexes.length > 0) await c.query(indexes.map((i) => `drop index ${i.name}`).join(';\n'));
      return { indexes };
    } catch (err) {
      await c.query('rollback').catch(() => {});
      throw err;
    }
  }

  function drop(c: pg.PoolClient, err?: boolean) {
    c.off('error', onError);
    c.release(err);
    client = null;
  }

  async function write(items: BatchItem[]): Promise<void> {
    if (items.length === 0) return;
    const c = await connection();
    const texts = items.map((item) => (isPrepared(item) ? item.copy : personCopy(item)));
    // In bulk mode a batch is a savepoint of the load's transaction; otherwise its own transaction.
    const open = bulk
      ? 'savepoint batch'
      : // A crash may lose the last batches reported as loaded; re-running the import restores them.
        `begin; set local synchronous_commit = off;
         ${skipTriggers ? 'set local session_replication_role = replica' : ''}`;
    try {
      const opened = await c.query<{ id: string }>(
        `${open}; select id::text as id from people where ${idMatch(items.map((r) => r.id))('id')}`,
      );
      const found = (Array.isArray(opened) ? opened.at(-1) : opened) as pg.QueryResult<{ id: string }>;
      const existing = new Set(found.rows.map((r) => Number(r.id)));
      const fresh = TABLES.map(() => '');
      const old = TABLES.map(() => '');
      items.forEach((item, i) => {
        const into = existing.has(item.id) ? old : fresh;
        texts[i]!.forEach((part, t) => {
          if (part) into[t] = `${into[t]}${part}`;
        });
      });
      // New people first: with the foreign-key triggers on, their linked rows need them.
      for (const [t, table] of TABLES.entries()) {
        if (fresh[t]) await copyInto(c, table, table, fresh[t]);
        if (old[t]) await copyInto(c, stage(table), table, old[t]);
      }
      const merge: string[] = [];
      if (existing.size > 0) {
        const ids = idMatch(existing);
        if (old[0]) merge.push(UPSERT_PEOPLE);
        if (old[INDEX.get('person_ips')!]) merge.push(CHECK_REPEATED_IP);
        for (const table of LINKED_TABLES) {
          merge.push(DELETE_CHANGED(table, ids));
          if (old[INDEX.get(table)!]) merge.push(INSERT_MISSING(table, ids));
        }
        // Emptied at commit anyway; a bulk load's next batch is in the same transaction.
        merge.push(
          `truncate ${TABLES.filter((_, t) => old[t])
            .map(stage)
            .join(', ')}`,
        );
      }
      // The batch's lookup records (decision 0017); a bulk load builds them all at once in finish().
      if (!bulk) merge.push(LOCK_SUPPRESSIONS, storeRecordsSql(idMatch(items.map((r) => r.id))));
      merge.push(bulk ? 'release savepoint batch' : 'commit');
      await c.query(merge.join(';\n'));
    } catch (err) {
      const undo = bulk ? 'rollback to savepoint batch; release savepoint batch' : 'rollback';
      await c.query(undo).catch(() => {
        broken = true;
      });
      if (broken) {
        drop(c, true);
        if (bulk) {
          bulk = null;
          bulkLost = true;
          throw new LoadAborted(`the bulk load's transaction was lost: ${(err as Error).message}`);
        }
      }
      throw err;
    }
  }

  /** Ends the load: in bulk mode stores every lookup record, builds the dropped indexes and commits everything. */
  async function finish(): Promise<void> {
    if (!bulk || !client) return;
    const c = client;
    const { indexes } = bulk;
    bulk = null;
    try {
      await c.query([LOCK_SUPPRESSIONS, storeRecordsSql(), ...indexes.map((i) => i.def), 'commit'].join(';\n'));
    } catch (err) {
      await c.query('rollback').catch(() => {
        broken = true;
      });
      throw err;
    }
  }

  async function close(): Promise<void> {
    const c = client;
    if (!c) return;
    if (bulk) {
      // Not finished: the load failed; its transaction goes, and the dropped indexes come back with it.
      bulk = null;
      await c.query('rollback').catch(() => {
        broken = true;
      });
    }
    if (!broken) {
      const staged = TABLES.map((t) => stage(t)).join(', ');
      await c.query(`drop table if exists ${staged}`).catch(() => {
        broken = true;
      });
    }
    drop(c, broken);
  }

  return { write, finish, close };
}
