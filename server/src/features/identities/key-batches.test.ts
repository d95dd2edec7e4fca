/**
 * Key lookups sharing statements (key-batches.ts) on the real database: each lookup gets exactly what it would have
 * got alone, lookups asking for different numbers of people never share, and a failed statement fails only the
 * lookups in it.
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { testDatabase } from '../../test/harness';
import { createKeyBatches, MAX_KEYS, MAX_RUNNING } from './key-batches';
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
    const single = recorded();
    const alone = [];
    for (const keys of lookups) alone.push(summary(await single.batches.find(keys, 10)));
    expect(single.statements).toHaveLength(lookups.length);

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

  it('fails every lookup of a statement the database refuses, and only those, and goes on', async () => {
    const p = person();
    await load(database, p);
    const { statements, batches } = recorded();
    const busy = Array.from({ length: MAX_RUNNING }, () => batches.find(keysOf([['id', [String(p.id)]]]), 10));
    // Lookups normalize ids before they get here; this one reaches the database as it is, and the cast fails. The
    // lookup waiting with it shares its statement and its fate; one asking for another limit does not.
    const bad = batches.find(keysOf([['id', ['not a number']]]), 3);
    const withBad = batches.find(keysOf([['email', [p.emails[0]!.address]]]), 3);
    const apart = batches.find(keysOf([['email', [p.emails[0]!.address]]]), 10);
    await expect(bad).rejects.toThrow();
    await expect(withBad).rejects.toThrow();
    expect((await apart).hits.map((h) => h.id)).toEqual([p.id]);
    await Promise.all(busy);
    expect(statements).toHaveLength(MAX_RUNNING + 2);
    expect((await batches.find(keysOf([['id', [String(p.id)]]]), 3)).hits.map((h) => h.id)).toEqual([p.id]);
  });

  it('gives lookups sharing a statement records of their own, so one changing its copy changes no other', async () => {
    const p = person();
    await load(database, p);
    const { statements, batches } = recorded();
    const busy = Array.from({ length: MAX_RUNNING }, () => batches.find(keysOf([['id', [String(p.id)]]]), 10));
    const [a, b] = await Promise.all([
      batches.find(keysOf([['id', [String(p.id)]]]), 10),
      batches.find(keysOf([['email', [p.emails[0]!.address]]]), 10),
    ]);
    await Promise.all(busy);
    expect(statements).toHaveLength(MAX_RUNNING + 1);
    const mine = a!.records.get(p.id) as unknown as { emails: unknown[] };
    mine.emails.length = 0;
    expect((b!.records.get(p.id) as unknown as { emails: unknown[] }).emails).toHaveLength(1);
  });

  it(`carries at most ${MAX_KEYS} keys in one shared statement`, async () => {
    const { statements, batches } = recorded();
    const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i));
    const busy = Array.from({ length: MAX_RUNNING }, () => batches.find(keysOf([['id', ['1']]]), 10));
    const big = [600, 300, 200].map((n, i) => batches.find(keysOf([['id', ids(9_000_000_000 + i * 1000, n)]]), 10));
    await Promise.all([...busy, ...big]);
    expect(statements.slice(MAX_RUNNING).map((keys) => keys.get('id')!.size)).toEqual([900, 200]);
  });
});
