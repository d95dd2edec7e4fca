/**
 * Start-up seeding: a new embedded database gets the generated graph once; a database with people, SEED_IDENTITIES=0
 * and PostgreSQL get nothing. The server process says so in one line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../../config';
import { openDatabase } from '../../../db/client';
import { migrate } from '../../../db/migrate';
import { testDatabase } from '../../../test/harness';
import { emptyStorageEnv, freePort, runChild } from '../../../test/process';
import { generatedRows, SEED, seedIdentities } from './seed';
import { query } from './test-records';

const onPostgres = Boolean(inject('databaseUrl'));

describe('seeding on start', () => {
  it.skipIf(onPostgres)('fills an empty embedded database once, and not when turned off', async () => {
    const database = await openDatabase({ dataDir: null });
    try {
      await migrate(database);
      expect(await seedIdentities(database, 0)).toEqual({ seeded: false, why: 'turned off' });
      expect(await query(database, 'select count(*)::int as n from people')).toEqual([{ n: 0 }]);

      const first = await seedIdentities(database, 250);
      expect(first).toMatchObject({ seeded: true, summary: { loaded: 250, rejected: 0 } });
      const [counts] = await query<{ people: number; emails: number; min: string; max: string }>(
        database,
        `select count(*)::int as people, min(id)::text as min, max(id)::text as max,
                (select count(*)::int from person_emails) as emails from people`,
      );
      expect(counts).toMatchObject({ people: 250, min: '1', max: '250' });
      expect(counts!.emails).toBeGreaterThan(250);

      expect(await seedIdentities(database, 250)).toEqual({ seeded: false, why: 'not empty' });
      expect(await query(database, 'select count(*)::int as n from people')).toEqual([{ n: 250 }]);
    } finally {
      await database.close();
    }
  });

  it.runIf(onPostgres)('never seeds PostgreSQL', async () => {
    expect(await seedIdentities(await testDatabase(), 250)).toEqual({ seeded: false, why: 'not embedded' });
  });

  it('is reported by the server process on a new embedded database only', async () => {
    const { env: storage, drop } = await emptyStorageEnv();
    const env = { ...storage, PORT: String(await freePort()), SEED_IDENTITIES: '200', TESSERA_VERSION: 's1' };
    try {
      for (const run of [1, 2]) {
        const child = runChild(['server/src/main.ts'], env);
        await child.waitFor('Tessera console:');
        const seeded = /Seeded the empty embedded database with 200 generated identities/.test(child.output());
        expect(seeded).toBe(run === 1 && !onPostgres);
        child.proc.kill('SIGTERM');
        expect(await child.exited).toBe(0);
      }
    } finally {
      await drop();
    }
  });
});

describe("the README's first call", () => {
  it('names an e-mail of person 1 of the seeded graph, who is id 1', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const email = /byEmail\?email=([^&`\s]+)&format=csv/.exec(readme)?.[1];
    const [first] = generatedRows(1, SEED);
    expect(first && 'record' in first ? first.record.emails?.map((e) => e.address) : []).toContain(email);
    expect(readme).toContain('/v2/identities/byId?id=1`');
  });
});
