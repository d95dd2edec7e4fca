/**
 * Key lookups sharing statements (key-batches.ts) on the real database: each lookup gets exactly what it would have
 * got alone, lookups asking for different numbers of people never share, and a failed statement fails only the
 * lookups in it.
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { testDatabase } from '../../test/harness';
import { createKeyBatches, MAX_RUNNING } from './key-batches';
import { runKeys } from './search';
import { load, person } from './test-people';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

type Keys = Map<LookupKey, Set<string>>;
const keysOf = (entries: [LookupKey, string[]][]): Keys => new Map(entries.map(([k, v]) => [k, new Set(v)]));

/** A batcher whose statements are recorded: the keys each one carried. */
function recorded() {
  const statements: Keys[] = [];
  const batches = createKeyBatches(database, (db, keys, limit) => {
    statements.push(keys);
    return runKeys(db, keys, limit);
  });
  return { statements, batches };
}

const summary = (r: { hits: { kind: string; key: string; id: number }[]; records: Map<number, unknown> }) => ({
  hits: r.hits.map((h) => `${h.kind}:${h.key}:${h.id}`).sort(),
  ids: r.hits.map((h) => (r.records.get(h.id) as { id: number }).id).sort(),
});

describe('key lookups sharing statements', () => {
  it('gives each of many concurrent lookups exactly what it finds alone, in fewer statements', async () => {
    const people = Array.from({ length: 12 }, () => person());
    await load(database, ...people);
    const lookups = people.map((p, i) =>
      i % 3 === 0
        ? keysOf([['email', [p.emails[0]!.address]]])
        : i % 3 === 1
          ? keysOf([
              ['phone', [p.phones[0]!.number]],
              ['id', [String(p.id)]],
            ])
          : keysOf([['vin', [p.vehicles[0]!.vin, 'NOTAKNOWNVIN00000']]]),
    );
    const alone = [];
    for (const keys of lookups) alone.push(summary(await runKeys(database, keys, 10)));

    const { statements, batches } = recorded();
    const together = await Promise.all(lookups.map((keys) => batches.find(keys, 10)));
    expect(together.map(summary)).toEqual(alone);
    together.forEach((r, i) => {
      expect(r.hits.every((h) => h.id === people[i]!.id)).toBe(true);
    });
    // The first MAX_RUNNING went alone; everyone after them shared the next statement.
    expect(statements).toHaveLength(MAX_RUNNING + 1);
  });

  it('never puts lookups asking for different numbers of people in one statement', async () => {
    const [a, b, c] = [person(), person(), person()];
    await load(database, a, b, c);
    const { statements, batches } = recorded();
    const busy = Array.from({ length: MAX_RUNNING }, () => batches.find(keysOf([['id', [String(a.id)]]]), 10));
    const one = batches.find(keysOf([['id', [String(b.id)]]]), 1);
    const ten = batches.find(keysOf([['id', [String(c.id)]]]), 10);
    await Promise.all([...busy, one, ten]);
    expect(statements.slice(MAX_RUNNING).map((keys) => [...keys.get('id')!])).toEqual([[String(b.id)], [String(c.id)]]);
    expect((await one).hits.map((h) => h.id)).toEqual([b.id]);
    expect((await ten).hits.map((h) => h.id)).toEqual([c.id]);
  });

  it('fails only the lookups of a statement the database refuses, and goes on', async () => {
    const p = person();
    await load(database, p);
    const { batches } = recorded();
    const busy = Array.from({ length: MAX_RUNNING }, () => batches.find(keysOf([['id', [String(p.id)]]]), 10));
    // Lookups normalize ids before they get here; this one reaches the database as it is, and the cast fails.
    const bad = batches.find(keysOf([['id', ['not a number']]]), 3);
    const good = batches.find(keysOf([['email', [p.emails[0]!.address]]]), 10);
    await expect(bad).rejects.toThrow();
    expect((await good).hits.map((h) => h.id)).toEqual([p.id]);
    await Promise.all(busy);
    expect((await batches.find(keysOf([['id', [String(p.id)]]]), 3)).hits.map((h) => h.id)).toEqual([p.id]);
  });
});
