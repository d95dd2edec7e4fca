/**
 * The fault suite's database cases (database.test.ts) through PgBouncer in transaction mode (decision 0042): the real
 * server process talks to PgBouncer, and PgBouncer to PostgreSQL through a TCP proxy on loopback, on a database of
 * its own (the role's defaults are per database). A cut or a stall behind PgBouncer answers only 2xx or 503 with
 * Retry-After, and the server recovers by itself.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { load, person } from '../features/identities/test-people';
import { type ScratchDatabase, scratchDatabase } from '../test/databases';
import { makeCustomer, PASSWORD } from '../test/harness';
import { signInOverHttp } from '../test/http-session';
import { PGBOUNCER, startPgBouncer, type TestPgBouncer } from '../test/pgbouncer';
import { type Child, freePort, runChild } from '../test/process';
import { type TcpProxy, tcpProxy } from '../test/tcp-proxy';
import { type Load, startLoad } from './load';
import { sleep, within } from './timing';

const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;
const skip = !base
  ? 'needs TEST_DATABASE_URL, in the server-postgres project'
  : !existsSync(PGBOUNCER)
    ? `${PGBOUNCER} is missing (apt-get install pgbouncer)`
    : null;
const CUT_MS = 10_000;
/** As database.test.ts: the longest the server may take to serve again once the database is back. */
const RECOVERY_BOUND_MS = 15_000;

describe.skipIf(skip)(`a database that goes away behind PgBouncer${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let scratch: ScratchDatabase;
  let direct: Database;
  let proxy: TcpProxy;
  let bouncer: TestPgBouncer;
  let child: Child;
  let cookie: string;
  let lookupUrl: string;

  beforeAll(async () => {
    scratch = await scratchDatabase(base!, 'pgbfault');
    if (scratch.url === base) throw new Error('These tests need a database of their own (the CREATEDB right).');
    direct = await openDatabase({ url: scratch.url, poolSize: 2 });
    await migrate(direct);
    const customer = await makeCustomer(direct);
    const p = person();
    await load(direct, p);
    const target = new URL(scratch.url);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(scratch.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    // PgBouncer waits server_login_retry (15 s by default) after a failed login to the server before the next try.
    bouncer = await startPgBouncer(viaProxy.toString(), { settings: { server_login_retry: 1 } });
    const port = await freePort();
    child = runChild(['server/src/main.ts'], {
      DATABASE_URL: bouncer.via(scratch.url),
      DATABASE_POOL_MODE: 'transaction',
      PORT: String(port),
      SEED_IDENTITIES: '0',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    await child.waitFor('Tessera console:');
    const baseUrl = `http://127.0.0.1:${port}`;
    cookie = await signInOverHttp(baseUrl, customer.email, PASSWORD);
    lookupUrl = `${baseUrl}/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`;
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore();
    child?.proc.kill('SIGTERM');
    await child?.exited;
    await bouncer?.stop();
    await proxy?.close();
    await direct?.close();
    await scratch?.drop();
  });

  async function through(fault: (load: Load) => Promise<void>) {
    const logBefore = child.output().length;
    const running = startLoad(lookupUrl, { cookie });
    await running.nextSuccess();
    await fault(running);
    await within(running.nextSuccess(), RECOVERY_BOUND_MS, 'a 2xx after the database came back');
    await running.nextSuccess();
    return { result: await running.stop(), log: child.output().slice(logBefore) };
  }

  it('answers only 2xx or 503 with Retry-After through a 10 s cut, and recovers', async () => {
    const { result, log } = await through(async (running) => {
      await proxy.cut();
      await running.next(503);
      await sleep(CUT_MS);
      await proxy.restore();
    });
    expect([...result.statuses.keys()].sort()).toEqual([200, 503]);
    expect(result.withoutRetryAfter).toBe(0);
    expect(log).not.toContain('request failed');
    expect(log).not.toMatch(/"stack"/);
    // PgBouncer ends a client's connection with its crashed server connection: that must not end the process.
    expect(log).not.toContain("Unhandled 'error' event");
  }, 120_000);

  it('answers 503 within the timeouts while the database stalls, and recovers', async () => {
    const { result } = await through(async (running) => {
      proxy.stall();
      await running.next(503);
      await running.next(503);
      await proxy.restore();
    });
    expect([...result.statuses.keys()].sort()).toEqual([200, 503]);
    expect(result.withoutRetryAfter).toBe(0);
  }, 120_000);
});
