/** Test helpers: generated people moved into an id range the calling test owns, and what the tables hold. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../../db/client';
import { buildRecordsSql } from '../../identities/record-sql';
import type { IdentityRecord } from '../record';
import { LINKED_TABLES } from './rows';
import { generatedRows } from './seed';

/** A base id far from every other test's (the database is shared by the worker's tests). */
export const ownIdBase = () => 5_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100_000;

export function generatedPeople(count: number, seed: string, base: number): IdentityRecord[] {
  const people: IdentityRecord[] = [];
  for (const row of generatedRows(count, seed)) {
    if ('record' in row) people.push({ ...row.record, id: base + row.record.id });
  }
  return people;
}

export function scratchFile(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tessera-import-')), name);
  writeFileSync(file, text);
  return file;
}

export const jsonl = (items: unknown[]) => `${items.map((i) => JSON.stringify(i)).join('\n')}\n`;

async function rawQuery<T>(database: Database, text: string, params: unknown[]): Promise<T[]> {
  const raw = database.raw;
  const result = raw.kind === 'pglite' ? await raw.client.query<T>(text, params) : await raw.pool.query(text, params);
  return result.rows as T[];
}

/** Rows per table for the given ids. */
export async function countsFor(database: Database, ids: number[]): Promise<Record<string, number>> {
  const list = `{${ids.join(',')}}`;
  const counts: Record<string, number> = {};
  const [people] = await rawQuery<{ n: number }>(
    database,
    'select count(*)::int as n from people where id = any($1::bigint[])',
    [list],
  );
  counts.people = people!.n;
  for (const table of LINKED_TABLES) {
    const [row] = await rawQuery<{ n: number }>(
      database,
      `select count(*)::int as n from ${table} where identity_id = any($1::bigint[])`,
      [list],
    );
    counts[table] = row!.n;
  }
  return counts;
}

export function query<T>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  return rawQuery<T>(database, text, params);
}

/** Every row of every table for ids base+1..base+count, with the id made relative so two loads compare. */
export async function tableContents(
  database: Database,
  base: number,
  count: number,
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ['people', ...LINKED_TABLES]) {
    const key = table === 'people' ? 'id' : 'identity_id';
    const rows = await rawQuery<{ r: string }>(
      database,
      `select (${key} - $1::bigint)::text || ' ' || (to_jsonb(t) - '${key}')::text as r
       from ${table} t where ${key} > $1::bigint and ${key} <= $1::bigint + $2::bigint`,
      [base, count],
    );
    out[table] = rows.map((row) => row.r).sort();
  }
  return out;
}

/**
 * The ids, of those given, whose stored lookup record is missing or differs from the record built from the tables
 * now (decision 0017): empty when the import kept every record current.
 */
export async function staleRecords(database: Database, ids: number[]): Promise<number[]> {
  const rows = await rawQuery<{ id: string }>(
    database,
    `select b.id::text as id from (${buildRecordsSql((column) => `${column} = any($1::bigint[])`)}) b
     left join person_records r on r.identity_id = b.id
     where r.record is null or r.record::text <> b.record::text order by b.id`,
    [`{${ids.join(',')}}`],
  );
  return rows.map((r) => Number(r.id));
}
