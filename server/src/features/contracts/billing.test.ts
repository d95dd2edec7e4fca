/** Contracts and 402: who may call, what a call costs, and the monthly limit; staff are never refused. */
import { PAYMENT_MESSAGES } from '@tessera/common/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import {
  buildTestApp,
  makeContract,
  makeCustomer,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../../test/harness';
import { rollUpAll } from '../../test/usage-rollups';
import { load, person } from '../identities/test-people';

let t: TestApp;
const api = consoleClient(() => t.app);
const p = person();
const url = `/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`;
beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, p);
});
afterAll(() => t.app.close());

const usageOf = async (requestId: unknown) =>
  (await t.database.query<Record<string, unknown>>('select * from usage where request_id = $1', [requestId]))[0];
const day = 24 * 3600_000;

async function memberOf(contract: Parameters<typeof makeContract>[2] | null, role: 'user' | 'super' = 'user') {
  const org = await makeOrganization(t.database);
  if (contract) await makeContract(t.database, org.id, contract);
  const user = await makeUser(t.database, role, org.id);
  return { organizationId: org.id, cookie: await signIn(t.app, user.email) };
}

describe('contracts', () => {
  it('answers 402 without a contract in force, saying why, and meters nothing', async () => {
    const cases: [Parameters<typeof makeContract>[2] | null, string][] = [
      [null, PAYMENT_MESSAGES.none],
      [
        { startsAt: new Date(Date.now() - 30 * day), endsAt: new Date('2026-01-01T00:00:00Z') },
        PAYMENT_MESSAGES.ended('2026-01-01'),
      ],
      [
        { startsAt: new Date('2099-03-01T00:00:00Z'), endsAt: new Date('2100-01-01T00:00:00Z') },
        PAYMENT_MESSAGES.notStarted('2099-03-01'),
      ],
      [{ status: 'suspended' }, PAYMENT_MESSAGES.suspended],
      [{ status: 'cancelled' }, PAYMENT_MESSAGES.cancelled],
    ];
    for (const [contract, message] of cases) {
      const { cookie } = await memberOf(contract);
      const res = await api.get(url, cookie);
      expect([res.statusCode, res.json().error, res.json().code], message).toEqual([402, message, 'payment_required']);
      expect(res.body).not.toContain(p.emails[0]!.address);
      expect(await usageOf(res.headers['x-request-id'])).toBeUndefined();
    }
    const loner = await makeUser(t.database, 'user', null);
    const res = await api.get(url, await signIn(t.app, loner.email));
    expect([res.statusCode, res.json().error]).toEqual([402, PAYMENT_MESSAGES.noOrganization]);
  });

  it('prices a call by request, identity and record group, and stores the cost with its usage and rollups', async () => {
    const { cookie, organizationId } = await memberOf({
      pricePerRequest: 0.001,
      pricePerIdentity: 0.01,
      groupPrices: { phones: 0.05, vehicles: 0.000123 },
    });
    const res = await api.get(url, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const row = await usageOf(res.headers['x-request-id']);
    expect(Number(row!.cost)).toBeCloseTo(0.001 + 0.01 + 0.05 + 0.000123, 9);
    await rollUpAll(t.database);
    const rollups = await t.database.query<{ bucket: string; requests: string; identities: string; cost: string }>(
      'select bucket, requests, identities, cost from usage_rollups where organization_id = $1 order by bucket',
      [organizationId],
    );
    expect(rollups.map((r) => [r.bucket, Number(r.requests), Number(r.identities), Number(r.cost)])).toEqual([
      ['day', 1, 1, 0.061123],
      ['day-user', 1, 1, 0.061123],
      ['hour', 1, 1, 0.061123],
      ['hour-user', 1, 1, 0.061123],
    ]);
  });

  it('refuses with 402 once the month’s spending reaches the limit', async () => {
    const { cookie } = await memberOf({ pricePerRequest: 0.004, pricePerIdentity: 0, monthlyLimit: 0.01 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get(url, cookie)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 402]);
    const res = await api.get(url, cookie);
    const next = new Date();
    const resumes = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toISOString();
    expect(res.json().error).toBe(PAYMENT_MESSAGES.limit(0.01, resumes));
  });

  it('meters staff but never refuses them; outside a contract they cost nothing', async () => {
    const staff = await makeUser(t.database, 'super', null);
    const alone = await api.get(url, await signIn(t.app, staff.email));
    expect(alone.statusCode).toBe(200);
    expect(Number((await usageOf(alone.headers['x-request-id']))!.cost)).toBe(0);
    const suspended = await memberOf({ status: 'suspended' }, 'super');
    const res = await api.get(url, suspended.cookie);
    expect(res.statusCode).toBe(200);
    expect(Number((await usageOf(res.headers['x-request-id']))!.cost)).toBe(0);
  });

  it('takes a contract change into account at once', async () => {
    const customer = await makeCustomer(t.database);
    const cookie = await signIn(t.app, customer.email);
    expect((await api.get(url, cookie)).statusCode).toBe(200);
    const root = await signIn(t.app, (await makeUser(t.database, 'root', null)).email);
    const [contract] = Object.values((await api.get('/v2/contracts', cookie)).json().contracts) as { id: number }[];
    const put = await api.put(`/v2/contracts/${contract!.id}`, root, { status: 'suspended' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await api.get(url, cookie)).json().error).toBe(PAYMENT_MESSAGES.suspended);
    await api.put(`/v2/contracts/${contract!.id}`, root, { status: 'active' });
    expect((await api.get(url, cookie)).statusCode).toBe(200);
  });
});

describe('/v2/contracts', () => {
  it('shows members their organization’s contracts (in summary); only staff make and change them', async () => {
    const customer = await makeCustomer(t.database);
    const cookie = await signIn(t.app, customer.email);
    const mine = Object.values((await api.get('/v2/contracts', cookie)).json().contracts) as {
      organizationId: number;
    }[];
    expect(mine.map((c) => c.organizationId)).toEqual([customer.organizationId]);
    const other = await makeCustomer(t.database);
    const theirs = Object.values(
      (await api.get('/v2/contracts', await signIn(t.app, other.email))).json().contracts,
    ) as { id: number }[];
    expect((await api.get(`/v2/contracts/${theirs[0]!.id}`, cookie)).statusCode).toBe(403);
    const body = {
      organizationId: customer.organizationId,
      startsAt: '2027-01-01T00:00:00Z',
      endsAt: '2028-01-01T00:00:00Z',
    };
    expect((await api.post('/v2/contracts', cookie, body)).statusCode).toBe(403);
    const root = await signIn(t.app, (await makeUser(t.database, 'root', null)).email);
    const made = await api.post('/v2/contracts', root, {
      ...body,
      pricePerRequest: 0.0025,
      groupPrices: { emails: 1 },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(Object.values(made.json().contracts)[0]).toMatchObject({ status: 'active', pricePerRequest: 0.0025 });
  });

  it('refuses a contract that ends before it starts, odd prices and unknown groups, naming the field', async () => {
    const root = await signIn(t.app, (await makeUser(t.database, 'root', null)).email);
    const organizationId = (await makeOrganization(t.database)).id;
    const base = { organizationId, startsAt: '2027-01-01T00:00:00Z', endsAt: '2028-01-01T00:00:00Z' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, endsAt: '2026-12-31T00:00:00Z' }, 'body.endsAt'],
      [{ ...base, pricePerRequest: 0.0000001 }, 'body.pricePerRequest'],
      [{ ...base, pricePerIdentity: -1 }, 'body.pricePerIdentity'],
      [{ ...base, groupPrices: { secrets: 1 } }, 'body.groupPrices'],
      [{ ...base, status: 'paused' }, 'body.status'],
      [{ ...base, monthlyLimit: 10.001 }, 'body.monthlyLimit'],
    ];
    for (const [body, path] of cases) {
      const res = await api.post('/v2/contracts', root, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res.json().fields.some((f: { path: string }) => f.path.startsWith(path)),
        res.body,
      ).toBe(true);
    }
    const missing = await api.post('/v2/contracts', root, { ...base, organizationId: 2_000_000_000 });
    expect(missing.statusCode).toBe(404);
    expect(
      (await t.database.query('select 1 from contracts where organization_id = $1', [organizationId])).length,
    ).toBe(0);
  });
});
