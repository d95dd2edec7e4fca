/**
 * The fault suite, database side (issue 12): the real server process on PostgreSQL behind a TCP proxy on loopback.
 * A cut under load answers only 2xx or 503 (with Retry-After), logs a line per burst rather than a stack per
 * request, and recovers by itself; a stall answers 503 within the pool's timeouts rather than hang.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../db/client';
import { load, person } from '../features/identities/test-people';
import { makeCustomer, PASSWORD, testDatabase } from '../test/harness';
import { signInOverHttp } from '../test/http-session';
import type { Child } from '../test/process';
import type { TcpProxy } from '../test/tcp-proxy';
import { type ProxiedServer, serverBehindProxy } from './behind-proxy';
import { type Load, startLoad } from './load';
import { sleep, within } from './timing';

const databaseUrl = inject('databaseUrl');
const CUT_MS = 10_000;
/** Longest the suite waits for the server to serve again once the database is back. */
const RECOVERY_BOUND_MS = 15_000;

describe.skipIf(!databaseUrl)('a database that goes away', () => {
  let database: Database;
  let server: ProxiedServer;
  let proxy: TcpProxy;
  let child: Child;
  let base: string;
  let cookie: string;
  let lookupUrl: string;
  let userId: number;

  beforeAll(async () => {
    database = await testDatabase();
    const customer = await makeCustomer(database);
    userId = customer.id;
    const p = person();
    await load(database, p);
    server = await serverBehindProxy(databaseUrl!, {
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    ({ proxy, child, base } = server);
    cookie = await signInOverHttp(base, customer.email, PASSWORD);
    lookupUrl = `${base}/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`;
  }, 120_000);

  afterAll(() => server?.stop());

  const usageRows = async (ids: string[]) =>
    (await database.query<{ n: number }>('select count(*)::int as n from usage where request_id = any($1)', [ids]))[0]!
      .n;
  const userRows = async () =>
    (await database.query<{ n: number }>('select count(*)::int as n from usage where user_id = $1', [userId]))[0]!.n;

  async function through(fault: (load: Load) => Promise<void>) {
    const before = await userRows();
    const logBefore = child.output().length;
    const running = startLoad(lookupUrl, { cookie });
    await running.nextSuccess();
    await fault(running);
    await within(running.nextSuccess(), RECOVERY_BOUND_MS, 'a 2xx after the database came back');
    await running.nextSuccess();
    const result = await running.stop();
    return { result, before, log: child.output().slice(logBefore) };
  }

  it('answers only 2xx or 503 with Retry-After through a 10 s cut, logs it per burst, and recovers', async () => {
    const { result, before, log } = await through(async (running) => {
      await proxy.cut();
      await running.next(503);
      await sleep(CUT_MS);
      await proxy.restore();
    });
    expect([...result.statuses.keys()].sort()).toEqual([200, 503]);
    expect(result.withoutRetryAfter).toBe(0);
    // Every call answered 2xx was metered; rows beyond them can only be calls whose commit was sent as the line was
    // cut (the row went in, the answer could not be known): at most a group's worth.
    expect(await usageRows(result.servedIds)).toBe(result.servedIds.length);
    const extra = (await userRows()) - before - result.servedIds.length;
    expect(extra).toBeGreaterThanOrEqual(0);
    expect(extra).toBeLessThanOrEqual(6);
    // One line when a burst starts and one counting the rest, per ten seconds: never a stack per request.
    const faultLines = log.split('\n').filter((l) => l.includes('database unavailable'));
    expect(faultLines.length).toBeGreaterThan(0);
    expect(faultLines.length).toBeLessThanOrEqual(6);
    expect(result.statuses.get(503)!).toBeGreaterThan(faultLines.length);
    expect(log).not.toContain('request failed');
    expect(log).not.toMatch(/"stack"/);
  }, 120_000);

  it('answers 503 within the timeouts while the database stalls, and recovers when it answers again', async () => {
    const { result } = await through(async (running) => {
      proxy.stall();
      // Every request of the load ends within 20 s or counts as an error: 503s mean none was left hanging.
      await running.next(503);
      await running.next(503);
      await proxy.restore();
    });
    expect([...result.statuses.keys()].sort()).toEqual([200, 503]);
    expect(result.withoutRetryAfter).toBe(0);
    expect(await usageRows(result.servedIds)).toBe(result.servedIds.length);
    // Health answers while the database is stalled, too.
    proxy.stall();
    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(20_000) });
    await proxy.restore();
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBeTruthy();
  }, 120_000);
});
