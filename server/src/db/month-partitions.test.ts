/**
 * Usage and the lookup audit trail by month (decision 0047): rows land in their month's partition, retention drops
 * whole months past its cutoff, and a request id stays counted once across the turn of a month.
 */
import { randomUUID } from 'node:crypto';
import { emptyMetrics } from '@tessera/common/usage';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCurrentMonths } from '../features/partitions/register';
import { type UsageEvent, writeUsage } from '../features/usage/metering';
import { testDatabase } from '../test/harness';
import type { Database } from './client';
import { dropMonthsBefore, ensureMonths, monthStart } from './month-partitions';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const event = (requestId = randomUUID()): UsageEvent => ({
  requestId,
  userId: 9,
  organizationId: null,
  keyId: null,
  method: 'GET',
  path: '/byId',
  status: 200,
  metrics: { ...emptyMetrics(), inputs: 1 },
  costMicros: 0,
});
const partitionOf = async (requestId: string) =>
  (
    await database.query<{ partition: string }>(
      'select tableoid::regclass::text as partition from usage where request_id = $1',
      [requestId],
    )
  ).map((r) => r.partition);
const exists = async (name: string) =>
  (await database.query<{ n: number }>('select count(*)::int as n from pg_class where relname = $1', [name]))[0]!.n ===
  1;

describe('monthly partitions', () => {
  it('exist for the last month, this one and the next two', async () => {
    await ensureCurrentMonths(database);
    for (const offset of [-1, 0, 1, 2]) {
      const m = monthStart(new Date(), offset);
      const suffix = `${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
      expect(await exists(`usage_${suffix}`), suffix).toBe(true);
      expect(await exists(`lookup_audit_${suffix}`), suffix).toBe(true);
    }
  });

  it('hold each row in its month, and retention drops whole months past the cutoff', async () => {
    // Months of 1999, which no other test writes in.
    const from = new Date('1999-01-01T00:00:00Z');
    expect((await ensureMonths(database, 'usage', from, new Date('1999-02-01T00:00:00Z'))).made).toEqual([
      'usage_1999_01',
      'usage_1999_02',
    ]);
    await ensureMonths(database, 'lookup_audit', from, from);
    // Made already: nothing to do.
    expect((await ensureMonths(database, 'usage', from, from)).made).toEqual([]);
    const january = event();
    const february = event();
    await writeUsage(database, [january], new Date('1999-01-15T12:00:00Z'));
    await writeUsage(database, [february], new Date('1999-02-15T12:00:00Z'));
    expect(await partitionOf(january.requestId)).toEqual(['usage_1999_01']);
    expect(await partitionOf(february.requestId)).toEqual(['usage_1999_02']);
    // A cutoff inside February drops January whole and keeps February.
    expect(await dropMonthsBefore(database, 'usage', new Date('1999-02-10T00:00:00Z'))).toEqual(['usage_1999_01']);
    expect(await partitionOf(january.requestId)).toEqual([]);
    expect(await partitionOf(february.requestId)).toEqual(['usage_1999_02']);
    expect(await dropMonthsBefore(database, 'lookup_audit', new Date('1999-02-01T00:00:00Z'))).toEqual([
      'lookup_audit_1999_01',
    ]);
    expect(await dropMonthsBefore(database, 'usage', new Date('1999-03-01T00:00:00Z'))).toEqual(['usage_1999_02']);
  });

  it('counts a request id once when its retry comes in the first hour of the next month', async () => {
    await ensureMonths(database, 'usage', new Date('1998-03-01T00:00:00Z'), new Date('1998-04-01T00:00:00Z'));
    const first = event();
    expect(await writeUsage(database, [first], new Date('1998-03-31T23:59:58Z'))).toBe(1);
    expect(await writeUsage(database, [first], new Date('1998-04-01T00:00:03Z'))).toBe(0);
    expect(await partitionOf(first.requestId)).toEqual(['usage_1998_03']);
    // Past the first hour, a month's ids are its own (decision 0047 states the bound).
    expect(await writeUsage(database, [first], new Date('1998-04-01T01:00:00Z'))).toBe(1);
    await dropMonthsBefore(database, 'usage', new Date('1998-05-01T00:00:00Z'));
  });

  it('keeps a row of a month without a partition in the default one', async () => {
    const lost = event();
    await writeUsage(database, [lost], new Date('1997-06-15T00:00:00Z'));
    expect(await partitionOf(lost.requestId)).toEqual(['usage_default']);
    // Its month cannot be made while the default holds its rows: said, not thrown.
    expect(
      await ensureMonths(database, 'usage', new Date('1997-06-01T00:00:00Z'), new Date('1997-06-01T00:00:00Z')),
    ).toEqual({ made: [], blocked: ['usage_1997_06'] });
    await database.query('delete from usage where request_id = $1', [lost.requestId]);
  });
});
