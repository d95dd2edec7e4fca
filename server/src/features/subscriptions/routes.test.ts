/**
 * /v2/subscriptions (issue 33 item 2): made by a console user or an API key, by id or by an input resolved now;
 * listed, read and deleted within the organization only; the contract's subscription limit (409 naming it); and a
 * clear 4xx for every bad request.
 */
import { IDEMPOTENCY_MESSAGES, RATE_MESSAGES } from '@tessera/common/lookups';
import { SUBSCRIPTION_MESSAGES } from '@tessera/common/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeContract,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../../test/harness';
import { load, md5, person, uniqueEmail } from '../identities/test-people';
import { TEMPLATE_MESSAGES } from '../templates/store';

let t: TestApp;
const api = consoleClient(() => t.app);
const p = person();
const q = person();
let staff: string;

beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, p, q);
  staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

async function customer(contract: Parameters<typeof makeContract>[2] = {}) {
  const org = await makeOrganization(t.database);
  await makeContract(t.database, org.id, contract);
  const user = await makeUser(t.database, 'admin', org.id);
  return { org, user, cookie: await signIn(t.app, user.email) };
}

const items = (res: { json(): { subscriptions: Record<string, unknown> } }) => Object.values(res.json().subscriptions);

describe('a subscription', () => {
  it('is made by id or by input, read, listed and deleted', async () => {
    const { org, user, cookie } = await customer();
    const byId = await api.post('/v2/subscriptions', cookie, { identityId: p.id });
    expect(byId.statusCode, byId.body).toBe(201);
    const made = items(byId)[0] as { id: number };
    expect(made).toEqual({
      id: expect.any(Number),
      organizationId: org.id,
      userId: user.id,
      keyId: null,
      identityId: p.id,
      input: null,
      templateId: 1,
      createdAt: expect.any(String),
    });
    const byEmail = await api.post('/v2/subscriptions', cookie, { email: ` ${q.emails[0]!.address.toUpperCase()} ` });
    expect(byEmail.statusCode, byEmail.body).toBe(201);
    expect(items(byEmail)[0]).toMatchObject({
      identityId: q.id,
      input: { kind: 'email', value: q.emails[0]!.address },
    });
    const byHash = await api.post('/v2/subscriptions', cookie, { md5: md5(q.emails[0]!.address) });
    expect(items(byHash)[0]).toMatchObject({ identityId: q.id, input: { kind: 'md5' } });

    expect(items(await api.get(`/v2/subscriptions/${made.id}`, cookie))).toEqual([made]);
    const listed = await api.get('/v2/subscriptions', cookie);
    expect(listed.statusCode).toBe(200);
    expect(items(listed)).toHaveLength(3);
    const gone = await api.del(`/v2/subscriptions/${made.id}`, cookie);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().subscriptions[made.id]).toEqual({ id: made.id, deletedAt: expect.any(String) });
    expect((await api.get(`/v2/subscriptions/${made.id}`, cookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/subscriptions/${made.id}`, cookie)).statusCode).toBe(404);
    expect(items(await api.get('/v2/subscriptions', cookie))).toHaveLength(2);
  });

  it('is made with an API key, which it names', async () => {
    const { cookie } = await customer();
    const key = Object.values((await api.post('/v2/keys', cookie, { name: 'sync' })).json().keys)[0] as {
      id: string;
      secret: string;
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/subscriptions',
      headers: { authorization: `Bearer ${key.id}${key.secret}`, 'content-type': 'application/json' },
      payload: { phone: q.phones[0]!.number },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(items(res)[0]).toMatchObject({ keyId: key.id, identityId: q.id, input: { kind: 'phone' } });
  });

  it("is another organization's as unknown as a missing one", async () => {
    const mine = await customer();
    const theirs = await customer();
    const made = items(await api.post('/v2/subscriptions', mine.cookie, { identityId: p.id }))[0] as { id: number };
    expect((await api.get(`/v2/subscriptions/${made.id}`, theirs.cookie)).json()).toMatchObject({
      error: SUBSCRIPTION_MESSAGES.notFound,
    });
    expect((await api.del(`/v2/subscriptions/${made.id}`, theirs.cookie)).statusCode).toBe(404);
    expect(items(await api.get('/v2/subscriptions', theirs.cookie))).toEqual([]);
    expect((await api.get(`/v2/subscriptions/${made.id}`, mine.cookie)).statusCode).toBe(200);
  });

  it("stops at the contract's limit, naming it, until one is deleted", async () => {
    const { org, cookie } = await customer({ subscriptionLimit: 2 });
    const first = items(await api.post('/v2/subscriptions', cookie, { identityId: p.id }))[0] as { id: number };
    expect((await api.post('/v2/subscriptions', cookie, { identityId: q.id })).statusCode).toBe(201);
    const over = await api.post('/v2/subscriptions', cookie, { identityId: q.id });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe(SUBSCRIPTION_MESSAGES.limit(2));
    expect(over.json().error).toContain('2 subscriptions');
    // Any member may read the organization's use of the limit with the list.
    const member = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
    const listed = await api.get('/v2/subscriptions', member);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ live: 2, limit: 2 });
    await api.del(`/v2/subscriptions/${first.id}`, cookie);
    expect((await api.post('/v2/subscriptions', cookie, { identityId: p.id })).statusCode).toBe(201);
  });
});

describe('making one', () => {
  it("counts against the contract's rate limit as a lookup does, so inputs cannot be probed without limit", async () => {
    const { cookie } = await customer({ rateLimit: 2 });
    const post = (body: unknown) => api.post('/v2/subscriptions', cookie, body);
    const first = await post({ email: p.emails[0]!.address });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect((await post({ email: uniqueEmail() })).statusCode).toBe(404); // a miss counts too
    const over = await post({ email: q.emails[0]!.address });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json().error).toBe(RATE_MESSAGES.organization(2, Number(over.headers['retry-after'])));
    // Reading and deleting are not lookups: they stay open.
    expect((await api.get('/v2/subscriptions', cookie)).statusCode).toBe(200);
  });

  it('with an Idempotency-Key, makes one subscription however often it is retried', async () => {
    const { cookie } = await customer({ subscriptionLimit: 1 });
    const post = (body: unknown, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/subscriptions',
        headers: { ...CONSOLE_HEADERS, cookie, 'idempotency-key': key },
        payload: body as object,
      });
    const first = await post({ identityId: p.id }, 'sub-1');
    expect(first.statusCode, first.body).toBe(201);
    const again = await post({ identityId: p.id }, 'sub-1');
    expect(again.statusCode).toBe(201); // not the 409 of a second subscription past the limit of one
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(items(await api.get('/v2/subscriptions', cookie))).toHaveLength(1);
    const other = await post({ identityId: q.id }, 'sub-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe(IDEMPOTENCY_MESSAGES.otherRequest);
  });
});

describe('a bad request', () => {
  it('is answered with a 4xx naming the problem', async () => {
    const { cookie } = await customer();
    const post = (body: unknown) => api.post('/v2/subscriptions', cookie, body);

    const none = await post({});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields).toEqual([{ path: 'body', message: SUBSCRIPTION_MESSAGES.oneTarget }]);
    expect((await post({ identityId: p.id, email: p.emails[0]!.address })).statusCode).toBe(400);
    const badEmail = await post({ email: 'not an address' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().fields).toEqual([{ path: 'body.email', message: SUBSCRIPTION_MESSAGES.input('email') }]);
    expect((await post({ identityId: 'x' })).json().fields[0].path).toBe('body.identityId');
    expect((await post({ identityId: p.id, extra: 1 })).statusCode).toBe(400);

    const unknown = await post({ identityId: 999_999_999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(SUBSCRIPTION_MESSAGES.unknownIdentity(999_999_999_999));
    const unresolved = await post({ email: uniqueEmail() });
    expect(unresolved.statusCode).toBe(404);
    expect(unresolved.json().error).toBe(SUBSCRIPTION_MESSAGES.unresolved('email'));

    const noTemplate = await post({ identityId: p.id, template: 987_654 });
    expect(noTemplate.statusCode).toBe(400);
    expect(noTemplate.json().fields).toEqual([{ path: 'body.template', message: TEMPLATE_MESSAGES.unknown(987_654) }]);

    expect((await api.get('/v2/subscriptions/abc', cookie)).statusCode).toBe(400);
    expect((await api.get('/v2/subscriptions?before=x', cookie)).statusCode).toBe(400);
  });

  it("may not use another organization's template", async () => {
    const mine = await customer();
    const theirs = await customer();
    const made = await api.post('/v2/templates', staff, {
      name: 'Theirs',
      expression: '{"id": id}',
      organizationId: theirs.org.id,
    });
    expect(made.statusCode, made.body).toBe(200);
    const templateId = Number(Object.keys(made.json().templates)[0]);
    expect((await api.post(`/v2/templates/${templateId}/publish`, staff, {})).statusCode).toBe(200);
    const refused = await api.post('/v2/subscriptions', mine.cookie, { identityId: p.id, template: templateId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(TEMPLATE_MESSAGES.unknown(templateId));
    const allowed = await api.post('/v2/subscriptions', theirs.cookie, { identityId: p.id, template: templateId });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('is refused without credentials, an organization or a contract', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/v2/subscriptions' });
    expect(anonymous.statusCode).toBe(401);
    const loner = await signIn(t.app, (await makeUser(t.database, 'user', null)).email);
    const orphan = await api.get('/v2/subscriptions', loner);
    expect(orphan.statusCode).toBe(403);
    expect(orphan.json().error).toBe(SUBSCRIPTION_MESSAGES.organizationRequired);
    const org = await makeOrganization(t.database);
    const unpaid = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
    expect((await api.post('/v2/subscriptions', unpaid, { identityId: p.id })).statusCode).toBe(402);
  });
});
