/**
 * The identity graph's tables on both engines: linked records cascade with their person, and the phonetic and
 * trigram functions the PII indexes are built on answer as matching will need them.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/harness';
import type { Database } from './client';
import { people, personAddresses, personEmails } from './schema';

let database: Database;
let nextId = 9_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
beforeAll(async () => {
  database = await testDatabase();
});

async function person(values: Partial<typeof people.$inferInsert> = {}) {
  const id = ++nextId;
  await database.db.insert(people).values({ id, firstName: 'Robert', lastName: 'Smith', ...values });
  return id;
}

describe('the identity graph tables', () => {
  it('keep bigint ids and remove linked records with their person', async () => {
    const id = await person({ address: '1234 N Oak St Apt 4B', zip: '94110' });
    expect(id).toBeGreaterThan(2 ** 32);
    await database.db.insert(personEmails).values({ identityId: id, address: 'rob@x.example', md5: 'a', sha256: 'b' });
    await database.db.insert(personAddresses).values({ identityId: id, seq: 1, address: '9 Elm Ave' });
    await database.db.delete(people).where(eq(people.id, id));
    expect(await database.db.select().from(personEmails).where(eq(personEmails.identityId, id))).toEqual([]);
    expect(await database.db.select().from(personAddresses).where(eq(personAddresses.identityId, id))).toEqual([]);
  });

  it('match names by sound and addresses by trigrams', async () => {
    const id = await person({ lastName: 'Smyth', address: '1234 North Oak Street' });
    const [row] = await database.db
      .select({
        sameSound: sql<boolean>`dmetaphone(${people.lastName}) = dmetaphone('Smith')`,
        similarity: sql<number>`similarity(lower(${people.address}), lower('1234 N Oak St'))`,
      })
      .from(people)
      .where(eq(people.id, id));
    expect(row!.sameSound).toBe(true);
    expect(Number(row!.similarity)).toBeGreaterThan(0.3);
  });
});
