/**
 * First start on an empty embedded database: a generated graph (seed 1) is loaded in-process, straight from the
 * generator's households into the import path, with no files. Never on PostgreSQL: an operator's database is
 * filled by `tessera import`.
 */
import type { Database } from '../../../db/client';
import { graphKeys } from '../generate/graph';
import { buildHousehold } from '../generate/household';
import { SeedKey } from '../generate/prng';
import { type ImportSummary, importRows } from './importer';
import type { SourceRow } from './source';

export const SEED = '1';

export type SeedOutcome =
  | { seeded: true; summary: ImportSummary }
  | { seeded: false; why: 'turned off' | 'not embedded' | 'not empty' };

/** The generator's people, household by household, as import rows; their ids count up from `firstId`. */
export function* generatedRows(identities: number, seed: string, firstId = 1): Generator<SourceRow> {
  const key = new SeedKey(seed);
  const keys = graphKeys(key);
  const end = firstId + identities;
  let nextId = firstId;
  for (let index = 0; nextId < end; index++) {
    const household = buildHousehold(key, keys, index, nextId, end - nextId);
    for (const person of household.people) {
      yield { file: `generated (seed ${seed})`, line: person.record.id, bytes: 0, record: person.record };
    }
    nextId += household.people.length;
  }
}

export async function seedIdentities(database: Database, identities: number, seed = SEED): Promise<SeedOutcome> {
  if (identities <= 0) return { seeded: false, why: 'turned off' };
  if (database.raw.kind !== 'pglite') return { seeded: false, why: 'not embedded' };
  const found = await database.raw.client.query('select 1 from people limit 1');
  if (found.rows.length > 0) return { seeded: false, why: 'not empty' };
  const summary = await importRows(database, generatedRows(identities, seed));
  return { seeded: true, summary };
}
