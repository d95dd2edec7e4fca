/**
 * The notifier (decision 0067), run a pass at a time on a database of the file's own, its events read from the
 * outbox: the template shapes the record; the diff is over what the subscriber may see (a change it may not see sends
 * nothing); a subscription by input follows the input to its new holder; two claims never take the same change;
 * captured changes older than the retention are pruned; and diffs name paths, never values.
 */
import type { IdentityChangedData } from '@tessera/common/subscriptions';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person, uniqueEmail, uniquePhone } from '../identities/test-people';
import { addSuppression } from '../stewardship/repo';
import { makeEndpoint, type OwnDatabase, organizationWithAdmin, ownDatabase } from '../webhooks/test-support';
import { claimChanges } from './changes';
import { recordChanges } from './diff';
import { pruneChanges } from './retention';

let own: OwnDatabase;
let t: TestApp;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  own = await ownDatabase('subscription_notifier');
  t = await buildTestApp({ database: own.database, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await t?.app.close();
  await own?.drop();
});

/** An organization with a contract, an endpoint taking change events, and its administrator's cookie. */
async function subscriber() {
  const made = await organizationWithAdmin(t);
  await makeContract(t.database, made.org.id);
  await makeEndpoint(t, made.cookie, { url: 'http://127.0.0.1:9/events' });
  return made;
}

async function subscribe(cookie: string, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/v2/subscriptions', cookie, body);
  expect(res.statusCode, res.body).toBe(201);
  return (Object.values(res.json().subscriptions)[0] as { id: number }).id;
}

/** The change events enqueued for the organization, oldest first. */
async function eventsOf(organizationId: number): Promise<IdentityChangedData[]> {
  const found = await t.database.query<{ payload: string }>(
    `select payload from webhook_messages where organization_id = $1 and event_type = 'identity.changed' order by id`,
    [organizationId],
  );
  return found.map((r) => JSON.parse(r.payload).data);
}

describe('the notifier', () => {
  it("shapes the record with the subscription's template", async () => {
    const { org, cookie } = await subscriber();
    const staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const made = await api.post('/v2/templates', staff, {
      name: 'Names',
      expression: '{"who": id, "surname": lastName}',
      organizationId: org.id,
    });
    const templateId = Number(Object.keys(made.json().templates)[0]);
    expect((await api.post(`/v2/templates/${templateId}/publish`, staff, {})).statusCode).toBe(200);
    const p = person();
    await load(t.database, p);
    await subscribe(cookie, { identityId: p.id, template: templateId });
    await load(t.database, { ...p, lastName: 'Shaped' });
    expect(await t.app.subscriptions.runOnce()).toBe(1);
    const [event] = await eventsOf(org.id);
    expect(event).toMatchObject({ identityId: p.id, record: { who: p.id, surname: 'Shaped' } });
  });

  it('diffs only what the key may see: a change it may not see sends nothing', async () => {
    const { org, cookie } = await subscriber();
    const key = Object.values(
      (await api.post('/v2/keys', cookie, { name: 'phones only', allowedRecordTypes: ['phones'] })).json().keys,
    )[0] as { id: string; secret: string };
    const p = person();
    await load(t.database, p);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/subscriptions',
      headers: { authorization: `Bearer ${key.id}${key.secret}`, 'content-type': 'application/json' },
      payload: { identityId: p.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    // An e-mail added: not the key's to see.
    await load(t.database, { ...p, emails: [...p.emails, { ...p.emails[0]!, address: uniqueEmail() }] });
    await t.app.subscriptions.runOnce();
    expect(await eventsOf(org.id)).toEqual([]);
    // A phone added: sent, and the record shows no e-mail.
    const phone = uniquePhone();
    await load(t.database, { ...p, phones: [...p.phones, { ...p.phones[0]!, number: phone }] });
    await t.app.subscriptions.runOnce();
    const [event] = await eventsOf(org.id);
    if (!event || event.suppressed) throw new Error('an event of a change was expected');
    // Phones only: the e-mail dropped again by this write is not the key's to see either.
    expect(event.changes.added.length).toBeGreaterThan(0);
    expect([...event.changes.added, ...event.changes.changed].every((path) => path.startsWith('phones['))).toBe(true);
    expect(event.changes.removed).toEqual([]);
    expect(event.record).toMatchObject({
      emails: [],
      phones: expect.arrayContaining([expect.objectContaining({ number: phone })]),
    });
  });

  it('sends no change to an organization that may not call now, but its suppression notice still', async () => {
    const served = await subscriber();
    const suspended = await subscriber();
    const p = person();
    await load(t.database, p);
    await subscribe(served.cookie, { identityId: p.id });
    await subscribe(suspended.cookie, { identityId: p.id });
    const root = await signIn(t.app, (await makeUser(t.database, 'root', null)).email);
    const [contract] = Object.values((await api.get('/v2/contracts', suspended.cookie)).json().contracts) as {
      id: number;
    }[];
    const put = await api.put(`/v2/contracts/${contract!.id}`, root, { status: 'suspended' });
    expect(put.statusCode, put.body).toBe(200);

    await load(t.database, { ...p, lastName: 'Changed' });
    expect(await t.app.subscriptions.runOnce()).toBe(1);
    expect(await eventsOf(served.org.id)).toHaveLength(1);
    expect(await eventsOf(suspended.org.id)).toEqual([]);

    await t.database.transaction((tx) =>
      addSuppression(tx, { kind: 'identity', value: String(p.id) }, { source: 'request', createdBy: null }),
    );
    expect(await t.app.subscriptions.runOnce()).toBe(2);
    expect(await eventsOf(suspended.org.id)).toEqual([expect.objectContaining({ identityId: p.id, suppressed: true })]);
  });

  it('sends nothing for a subscriber deactivated or a key expired since, as their lookups would be refused', async () => {
    const { org, cookie } = await subscriber();
    const member = await makeUser(t.database, 'user', org.id);
    const memberCookie = await signIn(t.app, member.email);
    const key = Object.values((await api.post('/v2/keys', cookie, { name: 'expiring' })).json().keys)[0] as {
      id: string;
      secret: string;
    };
    const p = person();
    await load(t.database, p);
    await subscribe(memberCookie, { identityId: p.id });
    const byKey = await t.app.inject({
      method: 'POST',
      url: '/v2/subscriptions',
      headers: { authorization: `Bearer ${key.id}${key.secret}`, 'content-type': 'application/json' },
      payload: { identityId: p.id },
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    await load(t.database, { ...p, lastName: 'Before' });
    await t.app.subscriptions.runOnce();
    // One event for each of the two subscriptions.
    expect(await eventsOf(org.id)).toHaveLength(2);

    const off = await api.put(`/v2/users/${member.id}`, cookie, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    await t.database.query(`update api_keys set expires_at = now() - interval '1 minute' where id = $1`, [key.id]);
    await load(t.database, { ...p, lastName: 'After' });
    await t.app.subscriptions.runOnce();
    expect(await eventsOf(org.id)).toHaveLength(2);
  });

  it('keeps no record of a person suppressed, not even of their changes waiting to go out', async () => {
    const { org, cookie } = await subscriber();
    const p = person();
    await load(t.database, p);
    await subscribe(cookie, { identityId: p.id });
    await load(t.database, { ...p, lastName: 'Waiting' }); // caught, its event not yet made
    const kept = () =>
      t.database.query<{ cause: string; held: boolean }>(
        `select cause, old_record is not null as held from identity_changes where identity_id = $1 order by id`,
        [p.id],
      );
    expect(await kept()).toEqual([{ cause: 'import', held: true }]);
    await t.database.transaction((tx) =>
      addSuppression(tx, { kind: 'identity', value: String(p.id) }, { source: 'request', createdBy: null }),
    );
    expect(await kept()).toEqual([
      { cause: 'import', held: false },
      { cause: 'suppression', held: false },
    ]);
    expect(await t.app.subscriptions.runOnce()).toBe(1);
    expect(await eventsOf(org.id)).toEqual([
      { subscriptionId: expect.any(Number), identityId: p.id, suppressed: true },
    ]);
    expect(await kept()).toEqual([]);
  });

  it('forgets the events made for a person before their suppression, sent or not: none can go out or be replayed', async () => {
    const { org, cookie } = await subscriber();
    const p = person();
    const other = person();
    await load(t.database, p, other);
    await subscribe(cookie, { identityId: p.id });
    await subscribe(cookie, { identityId: other.id });
    await load(t.database, { ...p, lastName: 'Changed' }, { ...other, lastName: 'Changed' });
    await t.app.subscriptions.runOnce();
    expect((await eventsOf(org.id)).map((e) => e.identityId).sort()).toEqual([p.id, other.id].sort());

    await t.database.transaction((tx) =>
      addSuppression(tx, { kind: 'identity', value: String(p.id) }, { source: 'request', createdBy: null }),
    );
    expect(await eventsOf(org.id)).toEqual([expect.objectContaining({ identityId: other.id })]);
    await t.app.subscriptions.runOnce();
    expect(await eventsOf(org.id)).toEqual([
      expect.objectContaining({ identityId: other.id }),
      { subscriptionId: expect.any(Number), identityId: p.id, suppressed: true },
    ]);
  });

  it('moves a subscription by input to the identity now holding it', async () => {
    const { org, cookie } = await subscriber();
    const email = uniqueEmail();
    const a = person({ emails: [{ address: email, firstSeen: '2020-01-01', lastSeen: '2020-06-01' }] });
    const b = person();
    await load(t.database, a, b);
    const id = await subscribe(cookie, { email });
    // The import moves the address from a to b.
    await load(t.database, { ...a, emails: [] }, { ...b, emails: [...b.emails, { ...a.emails[0]! }] });
    await t.app.subscriptions.runOnce();
    const [event] = await eventsOf(org.id);
    expect(event).toMatchObject({ subscriptionId: id, identityId: b.id, movedFrom: a.id, record: { id: b.id } });
    const now = (await api.get(`/v2/subscriptions/${id}`, cookie)).json().subscriptions[id];
    expect(now).toMatchObject({ identityId: b.id, input: { kind: 'email', value: email } });
  });

  it('never hands one change to two claims', async () => {
    const { cookie } = await subscriber();
    const p = person();
    await load(t.database, p);
    await subscribe(cookie, { identityId: p.id });
    await load(t.database, { ...p, lastName: 'Once' });
    await load(t.database, { ...p, lastName: 'Twice' });
    const [first, second] = await Promise.all([
      claimChanges(t.database, { limit: 1000, leaseMs: 60_000, token: 'one' }),
      claimChanges(t.database, { limit: 1000, leaseMs: 60_000, token: 'two' }),
    ]);
    const ids = [...first!, ...second!].map((c) => c.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(ids.length);
    // Leased: a third claim takes none of them until the lease ends.
    const third = await claimChanges(t.database, { limit: 1000, leaseMs: 60_000, token: 'three' });
    expect(third.filter((c) => ids.includes(c.id))).toEqual([]);
    await t.database.db.execute(sql`update identity_changes set lease_until = now() - interval '1 second'`);
  });

  it('prunes captured changes older than 30 days, and only those', async () => {
    await t.database.db.execute(sql`insert into identity_changes (identity_id, old_record, cause, at) values
      (1, null, 'import', now() - interval '31 days'), (2, null, 'import', now() - interval '29 days')`);
    expect(await pruneChanges(t.database)).toBe(1);
    const left = await t.database.query<{ identity_id: string }>(
      'select identity_id::text from identity_changes where identity_id in (1, 2)',
    );
    expect(left).toEqual([{ identity_id: '2' }]);
    await t.database.db.execute(sql`delete from identity_changes where identity_id = 2`);
  });
});

describe('a diff', () => {
  it('names the paths added, changed and removed, never a value', () => {
    const before = { a: 1, list: [{ x: 'old' }, { x: 'gone' }], nested: { keep: true, drop: 'secret' }, empty: [] };
    const after = { a: 2, list: [{ x: 'new' }], nested: { keep: true }, added: { y: null } };
    expect(recordChanges(before, after)).toEqual({
      added: ['added.y'],
      changed: ['a', 'list[0].x'],
      removed: ['list[1].x', 'nested.drop'],
    });
    expect(recordChanges(null, { a: 1 })).toEqual({ added: ['a'], changed: [], removed: [] });
    expect(recordChanges({ a: [1] }, { a: [1] })).toEqual({ added: [], changed: [], removed: [] });
  });
});
