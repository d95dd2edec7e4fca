/**
 * The server behind a real PgBouncer 1.18 in transaction mode (issue 27 item 7, decision 0042), on a database of
 * its own: two servers starting together both migrate; lookups and console calls work; the time limits and generic
 * plans are in force on every server connection without start-up parameters; a statement past the limit answers
 * 503; and no call meets another's prepared statement.
 */
import { existsSync } from 'node:fs';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { load, person } from '../features/identities/test-people';
import { openStorage } from '../runtime';
import { consoleClient } from '../test/console-client';
import { type ScratchDatabase, scratchDatabase } from '../test/databases';
import { buildTestApp, makeCustomer, signIn, type TestApp, testConfig } from '../test/harness';
import { PGBOUNCER, startPgBouncer, type TestPgBouncer } from '../test/pgbouncer';
import { type Database, openDatabase } from './client';
import { MIGRATIONS_FOLDER } from './migrate';

const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;
const skip = !base
  ? 'needs TEST_DATABASE_URL, in the server-postgres project'
  : !existsSync(PGBOUNCER)
    ? `${PGBOUNCER} is missing (apt-get install pgbouncer)`
    : null;
/** The server's statement_timeout here; the lookups' own budget is the same, every other statement's 1 s longer. */
const STATEMENT_MS = 2000;

describe.skipIf(skip)(`PgBouncer in transaction mode${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let scratch: ScratchDatabase;
  let bouncer: TestPgBouncer;
  /** Straight to PostgreSQL, for what the test arranges and inspects. */
  let direct: Database;
  /** Two servers' databases, opened and migrated at once through PgBouncer. */
  let servers: Database[] = [];
  let t: TestApp;
  let cookie: string;
  const api = consoleClient(() => t.app);

  beforeAll(async () => {
    scratch = await scratchDatabase(base!, 'pgb');
    // The role's defaults are set per database: on a shared one they would reach every other test's connections.
    if (scratch.url === base) throw new Error('These tests need a database of their own (the CREATEDB right).');
    bouncer = await startPgBouncer(scratch.url);
    direct = await openDatabase({ url: scratch.url, poolSize: 2 });
  }, 60_000);

  afterAll(async () => {
    await t?.app.close();
    for (const database of [...servers, direct]) await database?.close();
    await bouncer?.stop();
    await scratch?.drop();
  });

  /** Fills PgBouncer's pool with server connections, then leaves them idle there. */
  async function warmUp(url: string) {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    await Promise.all(Array.from({ length: 8 }, () => pool.query('select pg_sleep(0.1)')));
    await pool.end();
  }

  const env = () => ({
    DATABASE_URL: bouncer.via(scratch.url),
    DATABASE_POOL_MODE: 'transaction',
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
  });

  it('lets two servers starting together both migrate, each migration once, and leaves no lock behind', async () => {
    // As main.ts opens it: pool mode, time limits, migrations; each server with its own config, as in its own process.
    // PgBouncer's server connections opened before the role's defaults exist, as left by an earlier deployment.
    await warmUp(bouncer.via(scratch.url));
    const reports: string[] = [];
    const start = () => openStorage(testConfig(env()), (line) => reports.push(line), true);
    servers = await Promise.all([start(), start()]);
    // The one that wrote the defaults says the warmed-up connections keep the old values until they close.
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(
      /^DATABASE_POOL_MODE=transaction: plan_cache_mode, statement_timeout, idle_in_transaction_session_timeout set as defaults of the database role; [1-9]\d* connection\(s\) opened before keep the old values until they close/,
    );
    const [applied] = await direct.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(applied!.n).toBe(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length);
    const locks = await direct.query(
      `select 1 from pg_locks where locktype = 'advisory'
         and database = (select oid from pg_database where datname = current_database())`,
    );
    expect(locks).toEqual([]);
    // Both wrote the same defaults; the catalog holds them once.
    const [stored] = await direct.query<{ setconfig: string[] }>(
      `select setconfig from pg_db_role_setting
        where setdatabase = (select oid from pg_database where datname = current_database())
          and setrole = (select oid from pg_roles where rolname = current_user)`,
    );
    expect([...stored!.setconfig].sort()).toEqual(
      [
        `idle_in_transaction_session_timeout=${STATEMENT_MS * 4}`,
        'plan_cache_mode=force_generic_plan',
        `statement_timeout=${STATEMENT_MS}`,
      ].sort(),
    );
  }, 120_000);

  it('serves a lookup and a console call', async () => {
    t = await buildTestApp({ database: servers[0]!, env: env() });
    const customer = await makeCustomer(t.database);
    cookie = await signIn(t.app, customer.email);
    const p = person();
    await load(direct, p);
    const found = await api.get(`/v2/identities/byId?id=${p.id}`, cookie);
    expect(found.statusCode).toBe(200);
    expect(found.json().identities.map((i: { id: number }) => i.id)).toEqual([p.id]);
    const self = await api.get('/v2/self', cookie);
    expect(self.statusCode).toBe(200);
    expect(self.json().self).toMatchObject({ id: customer.id, email: customer.email });
  });

  it("loads the sandbox and answers a test key from it, its search_path never reaching another call's connection", async () => {
    const made = await api.post('/v2/keys', cookie, { name: 'sandbox', mode: 'test' });
    expect(made.statusCode, made.body).toBe(201);
    const key = Object.values(made.json().keys)[0] as { id: string; secret: string };
    const sample = await t.app.inject({ method: 'GET', url: '/v2/samples?mode=test' });
    const { id, email } = sample.json().samples;
    const p = person();
    await load(direct, p);
    // Test-key and live calls interleaved on the pooled connections: each finds its own graph only.
    const calls = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? t.app.inject({
              method: 'GET',
              url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}`,
              headers: { authorization: `Bearer tk_test_${key.id}${key.secret}` },
            })
          : api.get(`/v2/identities/byId?id=${p.id}`, cookie),
      ),
    );
    calls.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().identities.map((x: { id: number }) => x.id)).toContain(i % 2 === 0 ? id : p.id);
    });
  });

  it('has the time limits and generic plans in force on every server connection, with no start-up parameters', async () => {
    // What the start-up report asks of an operator: the connections from before the defaults are replaced.
    await bouncer.admin('RECONNECT');
    await bouncer.admin('WAIT_CLOSE');
    // More at once than PgBouncer has server connections, so every one of them answers some.
    const answers = await Promise.all(
      servers.flatMap((database) =>
        Array.from({ length: 12 }, () =>
          database.query<{ statement_timeout: string; plan_cache_mode: string; idle: string }>(
            `select current_setting('statement_timeout') as statement_timeout,
                    current_setting('plan_cache_mode') as plan_cache_mode,
                    current_setting('idle_in_transaction_session_timeout') as idle
               from pg_sleep(0.05)`,
          ),
        ),
      ),
    );
    expect(new Set(answers.map(([row]) => JSON.stringify(row)))).toEqual(
      new Set([JSON.stringify({ statement_timeout: '2s', plan_cache_mode: 'force_generic_plan', idle: '8s' })]),
    );
    expect((await servers[0]!.query<{ statement_timeout: string }>('show statement_timeout'))[0]).toEqual({
      statement_timeout: '2s',
    });
  });

  it('has PostgreSQL cancel a statement past statement_timeout, and a route answer 503 for it', async () => {
    // The client's own limit is a second longer: the server's cancel (57014) comes first.
    await expect(servers[0]!.query('select pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
    // Every signed-in call reads its session; a lock held elsewhere keeps that statement waiting past the limit.
    if (direct.raw.kind !== 'postgres') throw new Error('unreachable: the scratch database is PostgreSQL');
    const holder = await direct.raw.pool.connect();
    try {
      await holder.query('begin; lock table sessions in access exclusive mode');
      const res = await api.get('/v2/self', cookie);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeTruthy();
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    expect(t.logs.some((line) => line.includes('database unavailable') && line.includes('"57014"'))).toBe(true);
    expect((await api.get('/v2/self', cookie)).statusCode).toBe(200);
  });

  it('serves many lookups at once from two pools without meeting another call’s prepared statement', async () => {
    const people = Array.from({ length: 5 }, () => person());
    await load(direct, ...people);
    // The app's pool (10 connections) and the second server's share PgBouncer's 4 server connections.
    const [statuses, other] = await Promise.all([
      Promise.all(Array.from({ length: 60 }, (_, i) => api.get(`/v2/identities/byId?id=${people[i % 5]!.id}`, cookie))),
      Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          servers[1]!.query('select id from people where id = $1', [people[i % 5]!.id], { prepare: true }),
        ),
      ),
    ]);
    expect(statuses.map((res) => res.statusCode)).toEqual(statuses.map(() => 200));
    expect(other.map((rows) => rows.length)).toEqual(other.map(() => 1));
    expect(bouncer.output()).not.toContain('prepared statement');
  });
});
