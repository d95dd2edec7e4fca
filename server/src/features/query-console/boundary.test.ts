/**
 * Issue 28 finding 3: the parser's guard was bypassed by wrapping a call in query_to_xml('…'). Statements now run
 * as tessera_query_console inside its SECURITY DEFINER function (decision 0048), so on PostgreSQL the wrapped call
 * reaches the database and is refused there by the role's privileges: a clear 400 naming the role, and no effect
 * (the other session lives on, no file is read, no large object made). On the embedded engine the wrapping
 * functions are refused before anything runs; the role holds there too.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { BOUNDARY_MESSAGES, CONSOLE_ROLE } from './boundary';
import { confirmedRoot } from './test-support';

const url = inject('databaseUrl');
let t: TestApp;
const api = consoleClient(() => t.app);
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await confirmedRoot(t));
});
afterAll(() => t.app.close());

const run = (sql: string) => api.post('/v2/query', cookie, { cluster: 'main', sql });
const wrapped = (inner: string) => `select query_to_xml('${inner.replace(/'/g, "''")}', true, true, '')`;

const BY_ROLE = BOUNDARY_MESSAGES.privilege('…').split('…')[0]!;

/** A 400 that names the role and PostgreSQL's reason. */
function refusedByRole(res: { statusCode: number; json(): { error: string } }, reason: RegExp) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.startsWith(BY_ROLE)).toBe(true);
  expect(res.json().error).toMatch(reason);
}

describe('on both engines: the statement runs as the role, which cannot leave it', () => {
  it('runs as tessera_query_console', async () => {
    const res = await run('select current_user');
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toEqual([[CONSOLE_ROLE]]);
  });

  it('refuses switching back to the connecting user (set_config role)', async () => {
    refusedByRole(await run("select set_config('role', session_user, true)"), /cannot set parameter "role"/);
    refusedByRole(
      await run("select set_config('session_authorization', session_user, true)"),
      /cannot set parameter "session_authorization"/,
    );
  });

  it('refuses the server’s own secrets and its files', async () => {
    refusedByRole(await run('select * from server_secrets'), /permission denied for table server_secrets/);
    refusedByRole(await run("select pg_read_file('PG_VERSION')"), /permission denied for function pg_read_file/);
    refusedByRole(
      await run("select pg_read_binary_file(pg_relation_filepath('users'))"),
      /permission denied for function pg_read_binary_file/,
    );
    refusedByRole(await run("select pg_ls_dir('.')"), /permission denied for function pg_ls_dir/);
  });
});

describe.runIf(url)('on PostgreSQL: wrapped calls reach the database and the role refuses them', () => {
  let victim: pg.Client;
  let victimPid: number;
  beforeAll(async () => {
    // A session in another database of the same server, as the finding's was.
    const other = new URL(url!);
    other.pathname = '/postgres';
    victim = new pg.Client({ connectionString: other.toString() });
    victim.on('error', () => {});
    await victim.connect();
    victimPid = (await victim.query('select pg_backend_pid() as pid')).rows[0].pid;
  });
  afterAll(() => victim.end().catch(() => {}));

  it('cannot end or cancel another session, which lives on', async () => {
    const signal = /must be a superuser to (terminate|cancel) superuser/;
    refusedByRole(await run(wrapped(`select pg_terminate_backend(${victimPid})`)), signal);
    refusedByRole(await run(wrapped(`select pg_cancel_backend(${victimPid})`)), signal);
    expect((await victim.query('select 1 as alive')).rows).toEqual([{ alive: 1 }]);
  });

  it('cannot end an ordinary session either: the role has no pg_signal_backend', async () => {
    const role = `qc_victim_${randomUUID().slice(0, 8)}`;
    await victim.query(`create role ${role} login`);
    const other = new URL(url!);
    other.username = role;
    const plain = new pg.Client({ connectionString: other.toString() });
    plain.on('error', () => {});
    await plain.connect();
    try {
      const pid = (await plain.query('select pg_backend_pid() as pid')).rows[0].pid;
      refusedByRole(await run(wrapped(`select pg_terminate_backend(${pid})`)), /must be a member of the role/);
      expect((await plain.query('select 1 as alive')).rows).toEqual([{ alive: 1 }]);
    } finally {
      await plain.end();
      await victim.query(`drop role ${role}`);
    }
  });

  it('cannot reload the configuration, import a file or read one', async () => {
    const objects = async () =>
      (await t.database.query<{ n: number }>('select count(*)::int as n from pg_largeobject_metadata'))[0]!.n;
    const before = await objects();
    refusedByRole(await run(wrapped('select pg_reload_conf()')), /permission denied for function pg_reload_conf/);
    refusedByRole(await run(wrapped("select lo_import('/etc/passwd')")), /permission denied for function lo_import/);
    refusedByRole(
      await run(wrapped("select pg_read_file('/etc/passwd')")),
      /permission denied for function pg_read_file/,
    );
    refusedByRole(
      await run(wrapped("select pg_read_binary_file(pg_relation_filepath('users'))")),
      /permission denied for function pg_read_binary_file/,
    );
    refusedByRole(await run(wrapped("select set_config('role', session_user, true)")), /cannot set parameter "role"/);
    expect(await objects()).toBe(before);
  });

  it('has no dblink to reach other databases with', async () => {
    const res = await run(wrapped("select dblink_connect('dbname=postgres')"));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/function dblink_connect\(.*\) does not exist/);
  });

  it('an advisory lock taken by a wrapped call ends with the run (decision 0048)', async () => {
    const key = Math.floor(Math.random() * 1_000_000_000);
    const res = await run(wrapped(`select pg_advisory_lock(${key})`));
    expect(res.statusCode).toBe(200);
    // The run's connection is closed when it ends, and its session lock with it: another session takes it at once.
    const { rows } = await victim.query('select pg_try_advisory_lock($1) as got', [key]);
    expect(rows[0].got).toBe(true);
    await victim.query('select pg_advisory_unlock($1)', [key]);
  });
});

describe.runIf(!url)('on the embedded engine: the wrappers themselves are refused', () => {
  it.each([
    ['query_to_xml', wrapped('select pg_sleep(5)')],
    ['ts_stat', "select * from ts_stat('select pg_sleep(5)::text::tsvector')"],
    ['database_to_xml', "select database_to_xml(true, true, '')"],
  ])('%s', async (name, sql) => {
    const res = await run(sql);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(BOUNDARY_MESSAGES.embeddedSqlText(name));
  });

  it('refuses functions that are not built in, the console’s own run() included', async () => {
    const fn = `qc_loop_${randomUUID().slice(0, 8)}`;
    await t.database.query(`create function ${fn}() returns int language plpgsql as $$ begin loop end loop; end $$`);
    const own = await run(`select * from ${fn}()`);
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe(BOUNDARY_MESSAGES.embeddedUserFunction(fn));
    const sandbox = await run(`select * from ${CONSOLE_ROLE}.run('select pg_sleep(5)', 1, 1)`);
    expect(sandbox.json().error).toBe(BOUNDARY_MESSAGES.embeddedUserFunction('run'));
  });
});
