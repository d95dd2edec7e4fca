/**
 * `tessera user reset-2fa` (decision 0063): the way back in for a root who lost their device, run by an operator
 * against the deployment's storage. Each case starts the CLI (tsx compiling it): the allowance is for the starts.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, userTwoFactor } from '../../db/schema';
import { openStorage } from '../../runtime';
import { testConfig } from '../../test/harness';
import { runCli, storageEnv } from '../../test/process';

const STARTS_MS = 300_000;
let env: Record<string, string>;
beforeAll(() => {
  env = storageEnv();
});

/** Opens the same storage as the CLI, between its runs (the embedded database takes one process at a time). */
async function withStorage<T>(work: (db: Awaited<ReturnType<typeof openStorage>>) => Promise<T>): Promise<T> {
  const database = await openStorage(testConfig(env));
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

describe('tessera user reset-2fa', () => {
  it(
    'turns it off for the user and audits it; refuses a user without it, an unknown one and a missing --email',
    async () => {
      const email = `root-${randomUUID()}@tessera.test`;
      const made = await runCli(
        ['user', 'create', '--email', email, '--role', 'root', '--password', 'R00t-passw0rd!'],
        env,
      );
      expect(made.code).toBe(0);
      const id = Number(/user (\d+) </.exec(made.output)?.[1]);
      await withStorage((database) =>
        database.db.insert(userTwoFactor).values({ userId: id, secretSealed: 'sealed', enabledAt: new Date() }),
      );

      const reset = await runCli(['user', 'reset-2fa', '--email', email], env);
      expect(reset.code).toBe(0);
      expect(reset.output).toContain(`Two-factor sign-in turned off for ${email}.`);
      const [rows, audits] = await withStorage(async (database) => [
        await database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, id)),
        await database.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'two_factor.reset'), eq(auditLog.targetId, String(id)))),
      ]);
      expect(rows).toEqual([]);
      expect(audits).toHaveLength(1);

      const again = await runCli(['user', 'reset-2fa', '--email', email], env);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`${email} does not have two-factor sign-in on.`);
      const nobody = await runCli(['user', 'reset-2fa', '--email', `nobody-${randomUUID()}@tessera.test`], env);
      expect(nobody.code).toBe(2);
      expect(nobody.stderr).toContain('There is no user account for');
      const missing = await runCli(['user', 'reset-2fa'], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('user reset-2fa needs --email.');
    },
    STARTS_MS,
  );
});
