/**
 * Admission across processes (issue 27, item 3; decision 0051): no call reads or locks a row that calls update, and
 * under a monthly limit a process admits at most ADMITTED_PER_READING calls of an organization on one reading of its
 * spend, so the limit is overshot by at most that many calls per process, whatever the others serve meanwhile.
 */
import { PAYMENT_MESSAGES } from '@tessera/common/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { PaymentRequired } from '../../http/errors';
import { memoryFanout } from '../../socket/fanout';
import { makeContract, makeOrganization, testDatabase } from '../../test/harness';
import { servedCalls } from '../../test/usage-events';
import { writeUsage } from '../usage/metering';
import { ADMITTED_PER_READING, createBilling, KEEP_MS } from './billing';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const caller = (organizationId: number) => ({ organizationId, role: 'user' as const });

/** Another process's served calls, committed to the usage log. */
async function servedElsewhere(organizationId: number, calls: number, costMicros: number): Promise<void> {
  await writeUsage(database, servedCalls(calls, { userId: 1, organizationId, costMicros }));
}

/** Admits the organization's calls until a 402: how many were admitted, and the refusal. */
async function admitUntilRefused(billing: ReturnType<typeof createBilling>, organizationId: number, most: number) {
  for (let n = 0; n < most; n++) {
    try {
      await billing.admit(caller(organizationId));
    } catch (error) {
      expect(error).toBeInstanceOf(PaymentRequired);
      return { admitted: n, message: (error as Error).message };
    }
  }
  return { admitted: most, message: null };
}

describe('admission under a monthly limit, with several processes', () => {
  it('admits at most ADMITTED_PER_READING calls of an organization on one reading, however much others served', async () => {
    const org = await makeOrganization(database);
    await makeContract(database, org.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: 1 });
    const now = Date.now();
    const clock = () => now; // the reading never expires by time here: only the call count renews it
    const mine = createBilling({ database, fanout: memoryFanout(), now: clock });

    await mine.admit(caller(org.id)); // this process reads the standing: nothing spent
    await servedElsewhere(org.id, 100, 10_000); // the others spend the whole limit ($1) meanwhile

    const { admitted, message } = await admitUntilRefused(mine, org.id, 10 * ADMITTED_PER_READING);
    expect(admitted).toBe(ADMITTED_PER_READING - 1); // one reading's calls in all, then a fresh reading refuses
    const resumes = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + 1, 1));
    expect(message).toBe(PAYMENT_MESSAGES.limit(1, resumes.toISOString()));
  });

  it('counts its own charges at once, and reads the others’ after KEEP_MS at the latest', async () => {
    const org = await makeOrganization(database);
    await makeContract(database, org.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: 0.05 });
    let now = Date.now();
    const mine = createBilling({ database, fanout: memoryFanout(), now: () => now });
    for (let i = 0; i < 5; i++) {
      const terms = await mine.admit(caller(org.id));
      mine.charged(org.id, 10_000, terms);
    }
    await expect(mine.admit(caller(org.id))).rejects.toBeInstanceOf(PaymentRequired);

    const other = await makeOrganization(database);
    await makeContract(database, other.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: 0.05 });
    await mine.admit(caller(other.id));
    await servedElsewhere(other.id, 5, 10_000);
    await mine.admit(caller(other.id)); // the reading is still fresh
    now += KEEP_MS;
    await expect(mine.admit(caller(other.id))).rejects.toBeInstanceOf(PaymentRequired);
  });

  it('admits no more than a reading’s calls when they arrive together, and they share one new reading', async () => {
    const org = await makeOrganization(database);
    await makeContract(database, org.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: 1 });
    const now = Date.now();
    const mine = createBilling({ database, fanout: memoryFanout(), now: () => now });
    await mine.admit(caller(org.id));
    await servedElsewhere(org.id, 100, 10_000); // the limit is spent elsewhere

    // 3 readings' worth at once: the first reading's places are taken in turn, then every other call waits for the
    // one new reading (which sees the limit spent), not a reading each.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 * ADMITTED_PER_READING }, () => mine.admit(caller(org.id))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(ADMITTED_PER_READING - 1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(2 * ADMITTED_PER_READING + 1);
    for (const r of refused) expect(r.reason).toBeInstanceOf(PaymentRequired);
  });

  it('adds a charge to the reading its call was admitted on, never to a later one that holds it already', async () => {
    const org = await makeOrganization(database);
    await makeContract(database, org.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: 0.05 });
    let now = Date.now();
    const mine = createBilling({ database, fanout: memoryFanout(), now: () => now });
    const admitted = [];
    for (let i = 0; i < 4; i++) admitted.push(await mine.admit(caller(org.id)));
    await servedElsewhere(org.id, 4, 10_000); // those four calls' usage commits ($0.04)
    now += KEEP_MS;
    await mine.admit(caller(org.id)); // a new reading: $0.04 spent, below the limit
    // The four calls' charges arrive after it: their reading is gone, and the new one counted them already.
    for (const terms of admitted) mine.charged(org.id, 10_000, terms);
    const fifth = await mine.admit(caller(org.id)); // $0.04 < $0.05: served (it was refused when counted twice)
    mine.charged(org.id, 10_000, fifth);
    await expect(mine.admit(caller(org.id))).rejects.toBeInstanceOf(PaymentRequired); // $0.05 now, counted once
  });

  it('without a monthly limit, keeps a reading for KEEP_MS whatever the calls (nothing to overshoot)', async () => {
    const org = await makeOrganization(database);
    await makeContract(database, org.id, { pricePerRequest: 0.01, pricePerIdentity: 0, monthlyLimit: null });
    const now = Date.now();
    const mine = createBilling({ database, fanout: memoryFanout(), now: () => now });
    await mine.admit(caller(org.id));
    // Suspended elsewhere without the fan-out reaching this process: the reading stands until it expires by time.
    await database.query(`update contracts set status = 'suspended' where organization_id = $1`, [org.id]);
    const { admitted } = await admitUntilRefused(mine, org.id, 3 * ADMITTED_PER_READING);
    expect(admitted).toBe(3 * ADMITTED_PER_READING);
  });
});
