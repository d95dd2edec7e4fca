import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findUserByEmail } from '../features/users/repo';
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
    expect(await ensureRootUser(database, 'root@tessera.test', null)).toBe('not asked');
    await expect(ensureRootUser(database, 'root@tessera.test', 'weak')).rejects.toThrow(
      /^ROOT_PASSWORD: Please provide a password/,
    );
    await expect(ensureRootUser(database, 'not-an-address', 'Root-passw0rd!')).rejects.toThrow(/^ROOT_EMAIL: /);
    expect(await ensureRootUser(database, 'root@tessera.test', 'Root-passw0rd!')).toBe('created');
    const found = await findUserByEmail(database.db, 'root@tessera.test');
    expect(found?.user).toMatchObject({ email: 'root@tessera.test', role: 'root' });
    expect(found?.user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await ensureRootUser(database, 'second@tessera.test', 'Root-passw0rd!')).toBe(
      'ignored: the database already has users',
    );
    await database.close();
  });

  it('keeps a second process off an embedded database in use', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-lock-'));
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/is in use by process \d+\. Stop that process first/);
    await first.close();
    const again = await openDatabase({ dataDir });
    await again.close();
  });
});
