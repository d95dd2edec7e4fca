/**
 * Where the console's role is missing (decision 0048). Migration 0029 makes it when the server's database user may;
 * a user that may not create or grant roles migrates anyway, the start logs why, and the console answers 503 naming
 * the role. A CLUSTERS node gets no migration: there the console refuses until an administrator runs the
 * migration's SQL, and then runs as the role. PostgreSQL only (PGlite's one user is a superuser).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { MIGRATIONS_FOLDER, migrate } from '../../db/migrate';
import { consoleClient } from '../../test/console-client';
import { buildTestApp } from '../../test/harness';
import { BOUNDARY_MESSAGES, CONSOLE_ROLE } from './boundary';
import { confirmedRoot } from './test-support';

const url = inject('databaseUrl');
const suffix = randomBytes(4).toString('hex');
let admin: pg.Client;

const urlOf = (database: string, user?: string) => {
  const u = new URL(url!);
  u.pathname = `/${database}`;
  if (user) u.username = user;
  return u.toString();
};

describe.runIf(url)('without the role', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url! });
    await admin.connect();
  });
  afterAll(() => admin?.end());

  it('a user that may not create roles migrates; the start says why and the console answers 503', async () => {
    const user = `qc_plain_${suffix}`;
    const name = `qc_plain_db_${suffix}`;
    await admin.query(`create role ${user} login nosuperuser nocreaterole`);
    await admin.query(`create database ${name} owner ${user}`);
    const database = await openDatabase({ url: urlOf(name, user), poolSize: 2 });
    try {
      await migrate(database);
      const t = await buildTestApp({ database });
      try {
        const { cookie } = await confirmedRoot(t);
        const res = await consoleClient(() => t.app).post('/v2/query', cookie, { cluster: 'main', sql: 'select 1' });
        expect(res.statusCode).toBe(503);
        expect(res.json().error).toBe(BOUNDARY_MESSAGES.roleUnusable('main', 'not_member'));
        expect(res.json().error).toContain(CONSOLE_ROLE);
        expect(t.logs.join('\n')).toContain(BOUNDARY_MESSAGES.roleUnusable('main', 'not_member'));
        // The administrator's part (decision 0048): membership for the server's user, then the migration's SQL
        // run as that user, so tables it makes later are readable too.
        await admin.query(`grant ${CONSOLE_ROLE} to ${user}`);
        await database.query(readFileSync(path.join(MIGRATIONS_FOLDER, '0029_query_console_role.sql'), 'utf8'));
        await database.query('create table qc_later (a int)');
        const ran = await consoleClient(() => t.app).post('/v2/query', cookie, {
          cluster: 'main',
          sql: 'select current_user, (select count(*) from qc_later)',
        });
        expect(ran.statusCode).toBe(200);
        expect(ran.json().rows).toEqual([[CONSOLE_ROLE, '0']]);
      } finally {
        await t.app.close();
      }
    } finally {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`drop role if exists ${user}`);
    }
  });

  it('a CLUSTERS node refuses, naming the role, until the documented SQL is run there', async () => {
    const name = `qc_node_${suffix}`;
    await admin.query(`create database ${name}`);
    try {
      const t = await buildTestApp({ env: { CLUSTERS: `node=${urlOf(name)}` } });
      try {
        const { cookie } = await confirmedRoot(t);
        const run = () =>
          consoleClient(() => t.app).post('/v2/query', cookie, { cluster: 'node', sql: 'select current_user' });
        const refused = await run();
        expect(refused.statusCode).toBe(503);
        // The role is the server's (another database made it); this database has no run() of it.
        expect(refused.json().error).toBe(BOUNDARY_MESSAGES.roleUnusable('node', 'no_function'));
        const node = new pg.Client({ connectionString: urlOf(name) });
        await node.connect();
        await node.query(readFileSync(path.join(MIGRATIONS_FOLDER, '0029_query_console_role.sql'), 'utf8'));
        await node.end();
        const ran = await run();
        expect(ran.statusCode).toBe(200);
        expect(ran.json().rows).toEqual([[CONSOLE_ROLE]]);
      } finally {
        await t.app.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  });
});
