import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureRootUser } from '../features/users/service';
import { testDatabase } from '../test/harness';
import { openDatabase } from './client';
import { migrate } from './migrate';

describe('migrations', () => {
  it('are idempotent and install trigram and phonetic matching', async () => {
    const database = await testDatabase();
    await migrate(database);
    const result = await database.db.execute<{ sim: number; lev: number; code: string }>(
      sql`select similarity('jonathan', 'jonathon') as sim, levenshtein('smith', 'smyth') as lev, dmetaphone('Smith') as code`,
    );
    const row = (result as unknown as { rows: { sim: number; lev: number; code: string }[] }).rows[0]!;
    expect(Number(row.sim)).toBeGreaterThanOrEqual(0.5);
    expect(Number(row.lev)).toBe(1);
    expect(row.code).toBe('SM0');
  });
});

describe('first root user', () => {
  it('is created from ROOT_EMAIL and ROOT_PASSWORD on an empty database only', async () => {
    const database = await openDatabase({ dataDir: null });
    await migrate(database);
    expect(await ensureRootUser(database, 'root@tessera.test', null)).toBeNull();
    const root = await ensureRootUser(database, 'root@tessera.test', 'Root-passw0rd!');
    expect(root).toMatchObject({ email: 'root@tessera.test', role: 'root' });
    expect(root!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await ensureRootUser(database, 'second@tessera.test', 'Root-passw0rd!')).toBeNull();
    await database.close();
  });
});
