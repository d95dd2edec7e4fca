/**
 * /v2/contracts for the contract pages (issue 19, decision 0033), by outcome and rank: members read only the
 * summary and get 403 on a contract; another organization's administrators 403; an organization's administrators
 * read its contracts with this month's spend and their history; only super+ create, change and delete, each field
 * refused with its own message; a change prices the very next call; every write is in the history.
 */
import { CONTRACT_MESSAGES, type ContractChange } from '@tessera/common/contracts';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';

let t: TestApp;
const api = consoleClient(() => t.app);
const p = person();
const lookup = `/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`;
let superUser: { id: number; cookie: string };
beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, p);
  const staff = await makeUser(t.database, 'super');
  superUser = { id: staff.id, cookie: await signIn(t.app, staff.email) };
});
afterAll(() => t.app.close());

async function organization(contract: Parameters<typeof makeContract>[2] = {}) {
  const org = await makeOrganization(t.database);
  const row = await makeContract(t.database, org.id, contract);
  const admin = await makeUser(t.database, 'admin', org.id);
  const member = await makeUser(t.database, 'user', org.id);
  return {
    org,
    contractId: row.id,
    admin: await signIn(t.app, admin.email),
    member: await signIn(t.app, member.email),
  };
}

const base = (organizationId: number) => ({
  organizationId,
  name: 'Standard',
  startsAt: '2027-01-01T00:00:00Z',
  endsAt: '2028-01-01T00:00:00Z',
});
const only = <T>(area: Record<string, T>) => Object.values(area) as T[];
const costOf = async (requestId: unknown) =>
  (await t.database.query<{ cost: string }>('select cost::text from usage where request_id = $1', [requestId]))[0]!
    .cost;

describe('GET /v2/contracts/{id}', () => {
  it('200: an administrator of its organization and super+ see it with the month’s spend and its history', async () => {
    const { contractId, admin, member } = await organization({ pricePerRequest: 0.25, pricePerIdentity: 0 });
    expect((await api.get(lookup, member)).statusCode).toBe(200);
    for (const cookie of [admin, superUser.cookie]) {
      const res = await api.get(`/v2/contracts/${contractId}`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.contracts[contractId]).toMatchObject({ id: contractId, pricePerRequest: 0.25 });
      expect(body.contractSpend[contractId]).toEqual({
        id: contractId,
        month: new Date().toISOString().slice(0, 7),
        spent: '0.250000',
        monthlyLimit: null,
      });
      expect(body.contractChanges).toEqual({});
    }
  });

  it('403: members, administrators of another organization, and anyone below super asking for a missing one', async () => {
    const mine = await organization();
    const theirs = await organization();
    for (const [cookie, id] of [
      [mine.member, mine.contractId],
      [theirs.admin, mine.contractId],
      [mine.admin, 2_000_000_000],
    ] as const) {
      const res = await api.get(`/v2/contracts/${id}`, cookie);
      expect([res.statusCode, res.json().error]).toEqual([403, CONTRACT_MESSAGES.forbidden]);
    }
    expect((await api.get(`/v2/contracts?organizationId=${mine.org.id}`, theirs.admin)).statusCode).toBe(403);
  });

  it('404: super+ asking for a missing one; 400 for an id that is not one', async () => {
    expect((await api.get('/v2/contracts/2000000000', superUser.cookie)).statusCode).toBe(404);
    expect((await api.get('/v2/contracts/abc', superUser.cookie)).statusCode).toBe(400);
  });
});

describe('GET /v2/contracts', () => {
  it('gives members only what tells the contract in force and its limit; administrators and super+ all of it', async () => {
    const { org, contractId, admin, member } = await organization({ monthlyLimit: 50 });
    const summary = only((await api.get('/v2/contracts', member)).json().contracts);
    expect(summary).toEqual([
      expect.objectContaining({ id: contractId, organizationId: org.id, status: 'active', monthlyLimit: 50 }),
    ]);
    expect(summary[0]).not.toHaveProperty('pricePerRequest');
    expect(only((await api.get('/v2/contracts', admin)).json().contracts)[0]).toHaveProperty('pricePerRequest', 0.001);
    const filtered = only<{ id: number }>(
      (await api.get(`/v2/contracts?organizationId=${org.id}`, superUser.cookie)).json().contracts,
    );
    expect(filtered.map((c) => c.id)).toEqual([contractId]);
  });
});

describe('POST, PUT and DELETE /v2/contracts', () => {
  it('403 for an organization’s administrator, whose contract stays as it was', async () => {
    const { org, contractId, admin } = await organization();
    expect((await api.post('/v2/contracts', admin, base(org.id))).statusCode).toBe(403);
    expect((await api.put(`/v2/contracts/${contractId}`, admin, { status: 'cancelled' })).statusCode).toBe(403);
    expect((await api.del(`/v2/contracts/${contractId}`, admin)).statusCode).toBe(403);
    expect((await api.get(`/v2/contracts/${contractId}`, admin)).json().contracts[contractId].status).toBe('active');
  });

  it('400 naming each bad field with its message, from decimal strings as the console sends them', async () => {
    const org = await makeOrganization(t.database);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x'.repeat(101) }, 'body.name', MESSAGES.tooLong('a name', 100)],
      [{ startsAt: 'soon' }, 'body.startsAt', MESSAGES.date],
      [{ endsAt: '2026-13-45' }, 'body.endsAt', MESSAGES.date],
      [{ endsAt: '2026-12-31T00:00:00Z' }, 'body.endsAt', CONTRACT_MESSAGES.endsBeforeStart],
      [{ status: 'paused' }, 'body.status', CONTRACT_MESSAGES.status],
      [{ pricePerRequest: 'ten' }, 'body.pricePerRequest', MESSAGES.number],
      [{ pricePerRequest: '0.0000001' }, 'body.pricePerRequest', CONTRACT_MESSAGES.price],
      [{ pricePerIdentity: '-1' }, 'body.pricePerIdentity', MESSAGES.number],
      [{ pricePerIdentity: '1000000.5' }, 'body.pricePerIdentity', CONTRACT_MESSAGES.price],
      [{ groupPrices: { phones: '1e3' } }, 'body.groupPrices.phones', MESSAGES.number],
      [{ groupPrices: { secrets: '1' } }, 'body.groupPrices', CONTRACT_MESSAGES.group],
      [{ monthlyLimit: '10.001' }, 'body.monthlyLimit', CONTRACT_MESSAGES.limit],
      [{ monthlyLimit: 'lots' }, 'body.monthlyLimit', MESSAGES.number],
      [{ rateLimit: '1.5' }, 'body.rateLimit', MESSAGES.integer],
      [{ rateLimit: '0' }, 'body.rateLimit', CONTRACT_MESSAGES.rateLimit],
      [{ rateLimit: 10_000_001 }, 'body.rateLimit', CONTRACT_MESSAGES.rateLimit],
      [{ organizationId: 'x' }, 'body.organizationId', 'Please choose an organization.'],
    ];
    for (const [change, path, message] of cases) {
      const res = await api.post('/v2/contracts', superUser.cookie, { ...base(org.id), ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      const fields = res.json().fields as { path: string; message: string }[];
      expect(
        fields.some((f) => f.path.startsWith(path) && f.message === message),
        `${JSON.stringify(change)}: ${res.body}`,
      ).toBe(true);
    }
    const { contractId } = await organization();
    const bad = await api.put(`/v2/contracts/${contractId}`, superUser.cookie, { pricePerRequest: '1.1234567' });
    expect([bad.statusCode, bad.json().fields[0].message]).toEqual([400, CONTRACT_MESSAGES.price]);
    expect(
      (await t.database.query('select 1 from contracts where organization_id = $1', [org.id])).length,
      'nothing half-written',
    ).toBe(0);
  });

  it('404 for a missing organization or contract', async () => {
    expect((await api.post('/v2/contracts', superUser.cookie, base(2_000_000_000))).statusCode).toBe(404);
    expect((await api.put('/v2/contracts/2000000000', superUser.cookie, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del('/v2/contracts/2000000000', superUser.cookie)).statusCode).toBe(404);
  });

  it('201/200: super+ write exact decimals; a change prices the very next call; the history says who and what', async () => {
    const org = await makeOrganization(t.database);
    const member = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
    const made = await api.post('/v2/contracts', superUser.cookie, {
      ...base(org.id),
      startsAt: new Date(Date.now() - 3600_000).toISOString(),
      endsAt: '2099-01-01T00:00:00Z',
      pricePerRequest: '0.000123',
      pricePerIdentity: '0',
      groupPrices: { phones: '0.05' },
      monthlyLimit: '1000.50',
      rateLimit: '600',
    });
    expect(made.statusCode, made.body).toBe(201);
    const contract = only(made.json().contracts)[0] as { id: number };
    expect(contract).toMatchObject({ pricePerRequest: 0.000123, monthlyLimit: 1000.5, rateLimit: 600 });
    const first = await api.get(lookup, member);
    expect(first.statusCode).toBe(200);
    // 0.000123 a request, and 0.05 for the identity returned with phones.
    expect(await costOf(first.headers['x-request-id'])).toBe('0.050123');

    const put = await api.put(`/v2/contracts/${contract.id}`, superUser.cookie, {
      pricePerRequest: '0.5',
      name: 'Renegotiated',
    });
    expect(put.statusCode, put.body).toBe(200);
    const second = await api.get(lookup, member);
    expect(await costOf(second.headers['x-request-id'])).toBe('0.550000');

    const view = (await api.get(`/v2/contracts/${contract.id}`, superUser.cookie)).json();
    expect(view.contractSpend[contract.id]).toMatchObject({ spent: '0.600123', monthlyLimit: '1000.50' });
    // Keyed by id, so in id order; the page shows them newest first.
    const history = (only(view.contractChanges) as ContractChange[]).sort((a, b) => b.id - a.id);
    expect(history.map((h) => h.action)).toEqual(['updated', 'created']);
    expect(history[0]).toMatchObject({
      userId: superUser.id,
      changes: { pricePerRequest: { from: 0.000123, to: 0.5 }, name: { from: 'Standard', to: 'Renegotiated' } },
    });
    expect(Object.keys(history[0]!.changes).sort()).toEqual(['name', 'pricePerRequest']);
    expect(history[1]!.changes.monthlyLimit).toEqual({ from: null, to: 1000.5 });

    // Saving without a difference records nothing.
    await api.put(`/v2/contracts/${contract.id}`, superUser.cookie, { name: 'Renegotiated' });
    expect(only((await api.get(`/v2/contracts/${contract.id}`, superUser.cookie)).json().contractChanges)).toHaveLength(
      2,
    );
    // The audit log has the same two changes, by the same user, naming the fields.
    expect(await auditedOf(t.database, 'contract', contract.id)).toEqual([
      {
        action: 'contract.create',
        actorId: superUser.id,
        detail: { organizationId: org.id, fields: expect.arrayContaining(['pricePerRequest', 'monthlyLimit']) },
      },
      {
        action: 'contract.update',
        actorId: superUser.id,
        detail: { organizationId: org.id, fields: ['name', 'pricePerRequest'] },
      },
    ]);
  });

  it('200 on delete: the contract goes, the next call is refused, its history stays', async () => {
    const { contractId, member } = await organization();
    expect((await api.get(lookup, member)).statusCode).toBe(200);
    const res = await api.del(`/v2/contracts/${contractId}`, superUser.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contracts[contractId]).toHaveProperty('deletedAt');
    expect((await api.get(lookup, member)).statusCode).toBe(402);
    expect((await api.get(`/v2/contracts/${contractId}`, superUser.cookie)).statusCode).toBe(404);
    const kept = await t.database.query<{ action: string; user_id: number }>(
      'select action, user_id from contract_changes where contract_id = $1',
      [contractId],
    );
    expect(kept).toEqual([{ action: 'deleted', user_id: superUser.id }]);
    expect((await auditedOf(t.database, 'contract', contractId)).map((e) => [e.action, e.actorId])).toEqual([
      ['contract.delete', superUser.id],
    ]);
  });
});
