/**
 * Pool mode `transaction` makes the pool's settings defaults of the role in the database (decision 0042): written
 * only when they differ, never taken away by the CLI (which has no time limits), and a refusal stops the start with
 * a message. Straight to PostgreSQL (the defaults need no PgBouncer), on a database of its own.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError } from '../config';
import { openStorage } from '../runtime';
import { type ScratchDatabase, scratchDatabase } from '../test/databases';
import { testConfig } from '../test/harness';
import { openDatabase } from './client';
import { databaseTimeouts } from './timeouts';

const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;

describe.skipIf(!base)('role defaults in pool mode transaction', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await scratchDatabase(base!, 'roleset');
    if (scratch.url === base) throw new Error('These tests need a database of their own (the CREATEDB right).');
  });
  afterAll(() => scratch?.drop());

  /** Opens and closes as a start would; what it reported, and the role's defaults in the database after it. */
  async function start(statementMs: number | null) {
    const reports: string[] = [];
    const database = await openDatabase({
      url: scratch.url,
      poolMode: 'transaction',
      timeouts: statementMs === null ? null : databaseTimeouts(statementMs),
      report: (line) => reports.push(line),
    });
    const [row] = await database.query<{ config: string[] }>(
      `select setconfig as config from pg_db_role_setting
        where setdatabase = (select oid from pg_database where datname = current_database())
          and setrole = (select oid from pg_roles where rolname = current_user)`,
    );
    await database.close();
    return { reports, config: [...row!.config].sort() };
  }

  it('writes what differs only, and the CLI never takes the limits away', async () => {
    const first = await start(2000);
    expect(first.reports).toEqual([expect.stringMatching(/: plan_cache_mode, statement_timeout, idle_in_trans/)]);
    expect(first.config).toEqual([
      'idle_in_transaction_session_timeout=8000',
      'plan_cache_mode=force_generic_plan',
      'statement_timeout=2000',
    ]);
    expect(await start(2000)).toEqual({ reports: [], config: first.config });
    expect(await start(null)).toEqual({ reports: [], config: first.config });
    const changed = await start(3000);
    expect(changed.reports).toEqual([
      expect.stringMatching(/: statement_timeout, idle_in_transaction_session_timeout set as defaults/),
    ]);
    expect(changed.config).toEqual([
      'idle_in_transaction_session_timeout=12000',
      'plan_cache_mode=force_generic_plan',
      'statement_timeout=3000',
    ]);
  });

  it('stops the start with a message naming the setting when the database refuses, as a read-only one does', async () => {
    const admin = await openDatabase({ url: base! });
    const name = new URL(scratch.url).pathname.slice(1);
    await admin.query(`alter database ${name} set default_transaction_read_only = on`);
    await admin.close();
    const config = testConfig({ DATABASE_URL: scratch.url, DATABASE_POOL_MODE: 'transaction' });
    const starting = openStorage(config, () => {}, true);
    await expect(starting).rejects.toThrow(ConfigError);
    await expect(starting).rejects.toThrow(
      /^DATABASE_POOL_MODE=transaction: could not make \w+ a default of the database role \(cannot execute ALTER ROLE in a read-only transaction\)/,
    );
  });
});
