/**
 * A change subscription delivers records as a lookup does (issue 34, and the review of issue 33): under a contract
 * that lists permissible purposes it is made for one (403 otherwise, as a lookup), keeps it, and its events go out
 * only while the contract still allows it.
 */
import type { IdentityChangedData } from '@tessera/common/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeContract, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { makeEndpoint, type OwnDatabase, organizationWithAdmin, ownDatabase } from '../webhooks/test-support';

let own: OwnDatabase;
let t: TestApp;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  own = await ownDatabase('subscription_purpose');
  t = await buildTestApp({ database: own.database, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await t?.app.close();
  await own?.drop();
});

const subscribe = (cookie: string, identityId: number, purpose?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/subscriptions',
    headers: { ...CONSOLE_HEADERS, cookie, ...(purpose ? { 'x-permissible-purpose': purpose } : {}) },
    payload: { identityId },
  });

async function eventsOf(organizationId: number): Promise<IdentityChangedData[]> {
  const found = await t.database.query<{ payload: string }>(
    `select payload from webhook_messages where organization_id = $1 and event_type = 'identity.changed' order by id`,
    [organizationId],
  );
  return found.map((r) => JSON.parse(r.payload).data);
}

describe('a subscription under a contract that lists permissible purposes', () => {
  it('is made for an allowed purpose only, and its events stop when the contract no longer allows it', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const contract = await makeContract(t.database, org.id, { purposes: ['fcra-employment'] });
    await makeEndpoint(t, cookie, { url: 'http://127.0.0.1:9/events' });
    const p = person();
    await load(t.database, p);

    const none = await subscribe(cookie, p.id);
    expect(none.statusCode).toBe(403);
    expect(none.json().error).toContain('fcra-employment');
    const lacked = await subscribe(cookie, p.id, 'dppa-insurance');
    expect(lacked.statusCode).toBe(403);
    expect(lacked.json().error).toContain('dppa-insurance');
    const made = await subscribe(cookie, p.id, 'fcra-employment');
    expect(made.statusCode, made.body).toBe(201);
    const kept = await t.database.query<{ purpose: string | null }>(
      'select purpose from identity_subscriptions where organization_id = $1 and deleted_at is null',
      [org.id],
    );
    expect(kept).toEqual([{ purpose: 'fcra-employment' }]);

    await load(t.database, { ...p, lastName: 'Allowed' });
    await t.app.subscriptions.runOnce();
    expect(await eventsOf(org.id)).toHaveLength(1);

    const root = await signIn(t.app, (await makeUser(t.database, 'root', null)).email);
    const changed = await api.put(`/v2/contracts/${contract.id}`, root, { purposes: ['dppa-insurance'] });
    expect(changed.statusCode, changed.body).toBe(200);
    await load(t.database, { ...p, lastName: 'No longer allowed' });
    await t.app.subscriptions.runOnce();
    expect(await eventsOf(org.id)).toHaveLength(1);
  });
});
