/**
 * What only the PostgreSQL writer does: an unchanged re-import rewrites no row, the foreign-key triggers may be
 * kept or skipped with the same outcome, the load's connection goes back to the pool without its staging
 * tables, and bulk mode loads an empty database in one transaction that brings the indexes back whatever
 * happens. (importer.test.ts checks the loading itself on both engines.)
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../../db/client';
import { migrate } from '../../../db/migrate';
import { type ScratchDatabase, scratchDatabase } from '../../../test/databases';
import { testDatabase } from '../../../test/harness';
import type { IdentityRecord } from '../record';
import { importRows } from './importer';
import { idMatch } from './pg-writer';
import type { Reject } from './rejects';
import { LINKED_TABLES } from './rows';
import type { SourceRow } from './source';
import { countsFor, generatedPeople, ownIdBase, query, staleRecords, tableContents } from './test-records';
import { openBatchWriter } from './write-batch';

const onPostgres = Boolean(inject('databaseUrl'));

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

/** Row versions (xmin) of everything the ids have: they change when a row is rewritten. */
async function versions(ids: number[]): Promise<string[]> {
  const list = `{${ids.join(',')}}`;
  const out: string[] = [];
  for (const table of ['people', ...LINKED_TABLES, 'person_records']) {
    const key = table === 'people' ? 'id' : 'identity_id';
    const rows = await query<{ v: string }>(
      database,
      `select ${key}::text || ':' || xmin::text as v from ${table} where ${key} = any($1::bigint[])`,
      [list],
    );
    out.push(...rows.map((r) => `${table}:${r.v}`));
  }
  return out.sort();
}

async function load(records: ReturnType<typeof generatedPeople>, skipForeignKeyTriggers?: boolean) {
  const writer = await openBatchWriter(database, { skipForeignKeyTriggers });
  try {
    await writer.write(records);
  } finally {
    await writer.close();
  }
}

describe('matching a batch of ids', () => {
  it('uses ranges for runs of consecutive ids, and an array when they are scattered', () => {
    expect(idMatch([])('id')).toBe('false');
    expect(idMatch([7])('id')).toBe('id = 7');
    expect(idMatch([5, 3, 4, 9, 10, 20])('t.identity_id')).toBe(
      '(t.identity_id between 3 and 5 or t.identity_id between 9 and 10 or t.identity_id = 20)',
    );
    const scattered = Array.from({ length: 40 }, (_, i) => 1000 - i * 2);
    expect(idMatch(scattered)('id')).toBe(`id = any('{${[...scattered].reverse().join(',')}}'::bigint[])`);
  });
});

describe.runIf(onPostgres)('the PostgreSQL writer', () => {
  it('rewrites nothing when the same people are loaded again, and only what changed otherwise', async () => {
    const people = generatedPeople(50, 'pg-writer-same', ownIdBase());
    const ids = people.map((p) => p.id);
    await load(people);
    const before = await versions(ids);
    expect(before.length).toBeGreaterThan(500);
    await load(people);
    expect(await versions(ids)).toEqual(before);

    const changed = people.map((p, i) => (i === 0 ? { ...p, lastName: `${p.lastName}-x` } : p));
    await load(changed);
    const after = await versions(ids);
    const rewritten = after.filter((v) => !before.includes(v));
    expect(rewritten.sort()).toEqual([
      expect.stringMatching(new RegExp(`^people:${ids[0]}:`)),
      expect.stringMatching(new RegExp(`^person_records:${ids[0]}:`)),
    ]);
    expect(await staleRecords(database, ids)).toEqual([]);
  });

  it('gives the same rows with the foreign-key triggers kept or skipped', async () => {
    const people = generatedPeople(30, 'pg-writer-triggers', 0);
    const kept = ownIdBase();
    const skipped = ownIdBase();
    await load(
      people.map((p) => ({ ...p, id: p.id + kept })),
      false,
    );
    await load(
      people.map((p) => ({ ...p, id: p.id + skipped })),
      true,
    );
    const counts = async (base: number) =>
      countsFor(
        database,
        people.map((p) => p.id + base),
      );
    expect(await counts(kept)).toEqual(await counts(skipped));
    expect((await counts(kept)).person_emails).toBeGreaterThan(0);
    const [orphans] = await query<{ n: number }>(
      database,
      `select count(*)::int as n from person_emails e
       where e.identity_id > $1::bigint and not exists (select 1 from people p where p.id = e.identity_id)`,
      [Math.min(kept, skipped)],
    );
    expect(orphans!.n).toBe(0);
  });

  it('returns its connection to the pool without the staging tables', async () => {
    const raw = database.raw;
    if (raw.kind !== 'postgres') throw new Error('PostgreSQL only');
    const [person] = generatedPeople(1, 'pg-writer-close', ownIdBase());
    await load([person!]);
    // Every idle connection of the pool: none may keep an import_* table in its temporary schema.
    const clients = await Promise.all(Array.from({ length: raw.pool.totalCount }, () => raw.pool.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query(
          "select relname from pg_class where relnamespace = pg_my_temp_schema() and relname like 'import\\_%'",
        );
        expect(rows).toEqual([]);
      }
    } finally {
      for (const client of clients) client.release();
    }
  });
});

const rowsOf = (people: IdentityRecord[]): SourceRow[] =>
  people.map((record, i) => ({ file: 'bulk.jsonl', line: i + 1, bytes: 0, record }));

describe.runIf(onPostgres)('bulk mode', () => {
  // Bulk mode locks every table of the load: it gets a database of its own, not the run's shared one.
  let scratch: ScratchDatabase;
  let empty: Database;
  const indexes = async (db: Database) =>
    (
      await query<{ def: string }>(
        db,
        "select indexdef as def from pg_indexes where tablename = 'people' or tablename like 'person\\_%' order by 1",
      )
    ).map((r) => r.def);
  let before: string[];

  beforeAll(async () => {
    scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'bulk');
    empty = await openDatabase({ url: scratch.url, poolSize: 2 });
    await migrate(empty);
    before = await indexes(empty);
  });
  afterAll(async () => {
    await empty?.close();
    await scratch?.drop();
  });

  it('rolls a failed load back whole, indexes included', async () => {
    const people = generatedPeople(40, 'bulk-fail', 0);
    async function* failing(): AsyncGenerator<SourceRow> {
      yield* rowsOf(people.slice(0, 25));
      // Two batches are in: the load holds the tables, from another connection's point of view too.
      const [locks] = await query<{ n: number }>(
        empty,
        "select count(*)::int as n from pg_locks where relation = 'people'::regclass and mode = 'AccessExclusiveLock'",
      );
      expect(locks!.n).toBe(1);
      throw new Error('the file went away');
    }
    await expect(importRows(empty, failing(), { bulk: true, batchSize: 10 })).rejects.toThrow('the file went away');
    expect(await query(empty, 'select count(*)::int as n from people')).toEqual([{ n: 0 }]);
    expect(await indexes(empty)).toEqual(before);
  });

  it('loads an empty database as a usual load would, rejects included, and builds the indexes again', async () => {
    const people = generatedPeople(60, 'bulk-ok', 0);
    const bad = { ...people[7]!, behaviors: [{ category: 'X', name: 'nul\u0000', ...dates }] };
    const later = { ...people[3]!, firstName: 'Later', emails: [] };
    const rows = rowsOf([...people.slice(0, 7), bad, ...people.slice(8), later]);
    const rejects: Reject[] = [];
    const summary = await importRows(empty, rows, { bulk: true, batchSize: 10, onReject: (r) => rejects.push(r) });
    expect(summary).toMatchObject({ loaded: 60, rejected: 1 });
    expect(rejects).toEqual([{ file: 'bulk.jsonl', line: 8, reason: expect.stringMatching(/^database: /) }]);
    expect(await indexes(empty)).toEqual(before);
    const loaded = people.map((p) => p.id);
    expect(await staleRecords(empty, loaded)).toEqual([]);

    // The same rows loaded the usual way (the database is no longer empty, so bulk mode steps aside).
    const base = 1_000_000;
    const moved = rows.map((r) => ('record' in r ? { ...r, record: { ...r.record, id: r.record.id + base } } : r));
    expect(await importRows(empty, moved, { bulk: true, batchSize: 10 })).toMatchObject({ loaded: 60, rejected: 1 });
    expect(await tableContents(empty, 0, 60)).toEqual(await tableContents(empty, base, 60));
    const [row] = await query<{ first_name: string }>(empty, 'select first_name from people where id = $1', [4]);
    expect(row!.first_name).toBe('Later');
    expect(await staleRecords(empty, [...loaded, ...loaded.map((id) => id + base)])).toEqual([]);
  });
});

const dates = { firstSeen: '2020-01-01', lastSeen: '2021-01-01' };
