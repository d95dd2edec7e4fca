/**
 * The contract's terms for change subscriptions (decision 0067): a price per change event and a subscription limit,
 * set and changed through /v2/contracts like its other terms, checked with common/contracts.ts's rules.
 */
import { CONTRACT_MESSAGES } from '@tessera/common/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { contractTerms } from './repo';

let t: TestApp;
let staff: string;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  t = await buildTestApp();
  staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const term = { startsAt: '2027-01-01T00:00:00Z', endsAt: '2028-01-01T00:00:00Z' };

describe('a contract', () => {
  it('takes a price per change event and a subscription limit, and changes them', async () => {
    const org = await makeOrganization(t.database);
    const made = await api.post('/v2/contracts', staff, {
      organizationId: org.id,
      ...term,
      pricePerEvent: '0.0025',
      subscriptionLimit: 500,
    });
    expect(made.statusCode, made.body).toBe(201);
    const contract = Object.values(made.json().contracts)[0] as { id: number };
    expect(contract).toMatchObject({ pricePerEvent: 0.0025, subscriptionLimit: 500 });
    const changed = await api.put(`/v2/contracts/${contract.id}`, staff, { subscriptionLimit: null, pricePerEvent: 1 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().contracts[contract.id]).toMatchObject({ pricePerEvent: 1, subscriptionLimit: null });
    const defaults = await api.post('/v2/contracts', staff, { organizationId: org.id, ...term });
    expect(Object.values(defaults.json().contracts)[0]).toMatchObject({ pricePerEvent: 0, subscriptionLimit: null });
  });

  it('refuses a bad price per event or subscription limit, naming it', async () => {
    const org = await makeOrganization(t.database);
    const post = (extra: object) => api.post('/v2/contracts', staff, { organizationId: org.id, ...term, ...extra });
    const negative = await post({ subscriptionLimit: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().fields).toEqual([{ path: 'body.subscriptionLimit', message: expect.any(String) }]);
    const tooMany = await post({ subscriptionLimit: 20_000_000 });
    expect(tooMany.json().fields).toEqual([
      { path: 'body.subscriptionLimit', message: CONTRACT_MESSAGES.subscriptionLimit },
    ]);
    const price = await post({ pricePerEvent: '0.1234567' });
    expect(price.json().fields).toEqual([{ path: 'body.pricePerEvent', message: CONTRACT_MESSAGES.price }]);
  });

  it('prices change events only while it is in force: active, started and not ended', async () => {
    const day = 24 * 3600_000;
    const priced = async (values: Parameters<typeof makeContract>[2]) => {
      const org = await makeOrganization(t.database);
      await makeContract(t.database, org.id, { pricePerEvent: 0.02, subscriptionLimit: 7, ...values });
      const terms = await contractTerms(t.database.db, org.id);
      return terms && { ...terms, pricePerEvent: Number(terms.pricePerEvent) };
    };
    expect(await priced({})).toEqual({ pricePerEvent: 0.02, subscriptionLimit: 7 });
    for (const values of [
      { status: 'suspended' as const },
      { status: 'cancelled' as const },
      { startsAt: new Date(Date.now() - 2 * day), endsAt: new Date(Date.now() - day) },
      { startsAt: new Date(Date.now() + day), endsAt: new Date(Date.now() + 2 * day) },
    ]) {
      expect((await priced(values))?.pricePerEvent, JSON.stringify(values)).toBe(0);
    }
    expect(await contractTerms(t.database.db, (await makeOrganization(t.database)).id)).toBeNull();
  });
});
