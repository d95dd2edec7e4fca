/**
 * Change subscriptions end to end (issue 33 item 2, decision 0067) against a real receiver on loopback: three
 * subscriptions, an import that changes one identity and a suppression of another make exactly two signed events,
 * verifiable with the endpoint's secret, and two usage rows priced per event; a replay is not billed again; the
 * suppressed person's event carries nothing personal; a write that changes nothing sends nothing.
 */
import type { IdentityChangedData } from '@tessera/common/subscriptions';
import { SUBSCRIPTION_EVENT_USAGE_PATH } from '@tessera/common/usage';
import { verifyWebhook } from '@tessera/common/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, md5, person, uniqueEmail } from '../identities/test-people';
import { monthLines } from '../invoices/lines';
import { addSuppression } from '../stewardship/repo';
import {
  DELIVERING,
  eventually,
  expectedSignature,
  makeEndpoint,
  type OwnDatabase,
  organizationWithAdmin,
  ownDatabase,
  type Receiver,
  startReceiver,
} from '../webhooks/test-support';

let own: OwnDatabase;
let t: TestApp;
let receiver: Receiver;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  own = await ownDatabase('subscription_events');
  receiver = await startReceiver();
  t = await buildTestApp({ database: own.database, env: DELIVERING });
});
afterAll(async () => {
  await t?.app.close();
  await receiver?.close();
  await own?.drop();
});

const at = (path: string) => receiver.received.filter((r) => r.path === path);

async function subscribe(cookie: string, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/v2/subscriptions', cookie, body);
  expect(res.statusCode, res.body).toBe(201);
  return (Object.values(res.json().subscriptions)[0] as { id: number }).id;
}

async function usageRows(organizationId: number) {
  return t.database.query<{ request_id: string; user_id: number; cost: string; method: string }>(
    `select request_id, user_id, cost::text as cost, method from usage
     where organization_id = $1 and path = $2 order by request_id`,
    [organizationId, SUBSCRIPTION_EVENT_USAGE_PATH],
  );
}

/** Runs the notifier and the deliveries until nothing is left to do (the timers do the same meanwhile). */
async function drain(): Promise<void> {
  await t.app.subscriptions.runOnce();
  await t.app.webhooks.runOnce();
}

describe('three subscriptions, an import changing one and a suppression of another', () => {
  it('send exactly two signed events and bill each once', async () => {
    const { org, admin, cookie } = await organizationWithAdmin(t);
    await makeContract(t.database, org.id, { pricePerEvent: 0.05, subscriptionLimit: 10 });
    const { id: endpointId, secret } = await makeEndpoint(t, cookie, { url: `${receiver.base}/events` });
    const [a, b, c] = [person(), person(), person()];
    await load(t.database, a, b, c);
    const subA = await subscribe(cookie, { identityId: a.id });
    const subB = await subscribe(cookie, { email: b.emails[0]!.address.toUpperCase() });
    await subscribe(cookie, { identityId: c.id });

    // The import: a's surname and a new e-mail; b and c written again as they were (no change).
    const changedA = {
      ...a,
      lastName: 'Changedname',
      emails: [...a.emails, { ...a.emails[0]!, address: uniqueEmail() }],
    };
    await load(t.database, changedA, b, c);
    // The suppression of b's e-mail, by a staff member.
    const staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const suppressed = await api.post('/v2/suppressions', staff, { value: b.emails[0]!.address });
    expect(suppressed.statusCode, suppressed.body).toBe(201);

    await drain();
    await eventually(() => expect(at('/events')).toHaveLength(2));
    await eventually(async () => expect(await usageRows(org.id)).toHaveLength(2));
    await drain();
    expect(at('/events')).toHaveLength(2);

    const events = at('/events').map((got) => {
      expect(got.headers['webhook-signature']).toBe(expectedSignature(secret, got.headers, got.body));
      return verifyWebhook(secret, got.headers, got.body) as { type: string; data: IdentityChangedData };
    });
    expect(events.every((e) => e.type === 'identity.changed')).toBe(true);
    const ofA = events.find((e) => e.data.subscriptionId === subA)!.data;
    const ofB = events.find((e) => e.data.subscriptionId === subB)!.data;
    expect(ofA).toMatchObject({ identityId: a.id, suppressed: false, cause: 'import' });
    if (ofA.suppressed) throw new Error('a is not suppressed');
    expect(ofA.changes.changed).toContain('lastName');
    expect(ofA.changes.added).toEqual(expect.arrayContaining(['emails[1].address', 'emails[1].md5']));
    expect(ofA.changes.removed).toEqual([]);
    expect(ofA.record).toMatchObject({ id: a.id, lastName: 'Changedname' });
    // The suppressed e-mail is gone from b's record and named only by its path.
    expect(ofB).toMatchObject({ identityId: b.id, suppressed: false, cause: 'suppression' });
    if (ofB.suppressed) throw new Error('b is not suppressed as a person');
    expect(ofB.changes).toMatchObject({ added: [], changed: [] });
    expect(ofB.changes.removed).toEqual(expect.arrayContaining(['emails[0].address', 'emails[0].sha256']));
    expect(ofB.record).toMatchObject({ id: b.id, emails: [] });
    const raw = at('/events').find((r) => r.body.includes(`"subscriptionId":${subB}`))!.body;
    expect(raw).not.toContain(b.emails[0]!.address);
    expect(raw).not.toContain(md5(b.emails[0]!.address));

    const billed = await usageRows(org.id);
    expect(billed.map((r) => r.cost)).toEqual(['0.050000', '0.050000']);
    expect(billed.every((r) => r.user_id === admin.id)).toBe(true);
    expect(billed.every((r) => /^webhook-delivery-\d+$/.test(r.request_id))).toBe(true);

    // On the invoice: a line of change events at the contract's price, not counted as requests.
    const lines = await monthLines(t.database.db, new Date().toISOString().slice(0, 7), org.id);
    expect(lines.find((l) => l.price === 'event')).toMatchObject({
      quantity: '2',
      unit_price: '0.050000',
      amount: '0.100000',
    });
    expect(lines.find((l) => l.price === 'request')).toMatchObject({ quantity: '0' });

    // A replay sends the event again and bills nothing more.
    const log = (await api.get(`/v2/webhooks/${endpointId}/deliveries`, cookie)).json().webhookDeliveries.deliveries;
    const replayed = await api.post(`/v2/webhooks/${endpointId}/deliveries/${log[0].id}/replay`, cookie, undefined);
    expect(replayed.statusCode, replayed.body).toBe(202);
    await drain();
    await eventually(() => expect(at('/events')).toHaveLength(3));
    await eventually(async () => {
      const after = (await api.get(`/v2/webhooks/${endpointId}/deliveries`, cookie)).json().webhookDeliveries;
      expect(after.deliveries[0].status).toBe('succeeded');
    });
    expect(await usageRows(org.id)).toEqual(billed);

    // Nothing is left captured, and a write that changes nothing sends nothing: b's record, dropped by the
    // suppression (its change told then), is stored anew without an event that would call every path added.
    await load(t.database, changedA, b, c);
    await drain();
    const left = await t.database.query<{ n: number }>('select count(*)::int as n from identity_changes');
    expect(left[0]!.n).toBe(0);
    expect(at('/events')).toHaveLength(3);
  });
});

describe('a person suppressed', () => {
  it('gets an event saying only that, and nothing for later writes', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    await makeContract(t.database, org.id, { pricePerEvent: 0.02 });
    await makeEndpoint(t, cookie, { url: `${receiver.base}/person` });
    const p = person();
    await load(t.database, p);
    const sub = await subscribe(cookie, { phone: p.phones[0]!.number });
    // As an opt-out suppresses the person (opt-out-routes.ts), in its own transaction.
    await t.database.transaction((tx) =>
      addSuppression(tx, { kind: 'identity', value: String(p.id) }, { source: 'request', createdBy: null }),
    );
    await drain();
    await eventually(() => expect(at('/person')).toHaveLength(1));
    const body = at('/person')[0]!.body;
    expect(JSON.parse(body).data).toEqual({ subscriptionId: sub, identityId: p.id, suppressed: true });
    for (const value of [p.lastName, p.phones[0]!.number, p.emails[0]!.address, p.address]) {
      expect(body).not.toContain(value);
    }
    await eventually(async () => expect(await usageRows(org.id)).toHaveLength(1));

    // An import changing the suppressed person sends nothing more.
    await load(t.database, { ...p, lastName: 'Otherwise' });
    await drain();
    expect(at('/person')).toHaveLength(1);
    // Nor can anyone subscribe to them: as if they did not exist.
    const refused = await api.post('/v2/subscriptions', cookie, { identityId: p.id });
    expect(refused.statusCode).toBe(404);
  });
});
