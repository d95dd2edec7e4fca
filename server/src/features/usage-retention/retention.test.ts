/**
 * Usage retention (issue 16, decision 0029): rows older than the configured months go, a batch per statement until
 * none is left; newer rows and every rollup stay. The runs are scoped to one fresh organization, because every test
 * shares the worker's database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { buildTestApp, makeAccount, makeOrganization, testDatabase } from '../../test/harness';
import { servedCalls } from '../../test/usage-events';
import { rollUpAll } from '../../test/usage-rollups';
import { writeUsage } from '../usage/metering';
import { createUsageRetention, retentionCutoff } from './retention';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const DAY = 86_400_000;

const events = (n: number, userId: number, organizationId: number) =>
  servedCalls(n, { userId, organizationId, costMicros: 1000 });

async function rowsOf(organizationId: number): Promise<number> {
  const [row] = await database.query<{ n: number }>('select count(*)::int as n from usage where organization_id = $1', [
    organizationId,
  ]);
  return row!.n;
}

async function rollupsOf(organizationId: number): Promise<{ rows: number; requests: number; cost: number }> {
  await rollUpAll(database);
  const [row] = await database.query<{ rows: number; requests: string; cost: string }>(
    `select count(*)::int as rows, coalesce(sum(requests), 0) as requests, coalesce(sum(cost), 0) as cost
     from usage_rollups where organization_id = $1`,
    [organizationId],
  );
  return { rows: row!.rows, requests: Number(row!.requests), cost: Number(row!.cost) };
}

/** A fresh organization with 10 calls 40 days ago and 3 calls 2 days ago. */
async function organizationWithHistory() {
  const org = await makeOrganization(database);
  const user = await makeAccount(database, 'user', org.id);
  await writeUsage(database, events(10, user.id, org.id), new Date(Date.now() - 40 * DAY));
  await writeUsage(database, events(3, user.id, org.id), new Date(Date.now() - 2 * DAY));
  return org;
}

describe('the retention cutoff', () => {
  it('is the same moment the given calendar months back, on the last day of a shorter month', () => {
    expect(retentionCutoff(new Date('2026-11-25T15:04:05.678Z'), 13).toISOString()).toBe('2025-10-25T15:04:05.678Z');
    expect(retentionCutoff(new Date('2026-03-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(retentionCutoff(new Date('2028-03-31T12:00:00Z'), 1).toISOString()).toBe('2028-02-29T12:00:00.000Z');
    expect(retentionCutoff(new Date('2026-01-15T00:00:00Z'), 25).toISOString()).toBe('2023-12-15T00:00:00.000Z');
  });
});

describe('the retention job', () => {
  it('deletes only rows older than the cutoff, in batches until none is left, and keeps the rollups', async () => {
    const org = await organizationWithHistory();
    const before = await rollupsOf(org.id);
    expect(before.requests).toBe(13 * 4); // the hour, day, hour-user and day-user buckets
    const job = createUsageRetention({ database, months: 1, batchRows: 4, organizationId: org.id });

    const run = await job.runOnce();
    expect(run).toMatchObject({ deleted: 10, batches: 3 }); // 4 + 4 + 2: the short batch ends the run
    expect(await rowsOf(org.id)).toBe(3);
    expect(await rollupsOf(org.id)).toEqual(before);

    expect(await job.runOnce()).toMatchObject({ deleted: 0, batches: 1 });
    expect(await rowsOf(org.id)).toBe(3);
  });

  it('runs at start, then on its timer until stopped; with 0 months it keeps everything', async () => {
    const org = await organizationWithHistory();
    const job = createUsageRetention({ database, months: 1, organizationId: org.id });
    job.start(3600_000);
    const joined = await job.runOnce(); // joins the run that start() began
    await job.stop();
    expect(joined).toMatchObject({ deleted: 10, batches: 1 });
    expect(await rowsOf(org.id)).toBe(3);

    const kept = await organizationWithHistory();
    const off = createUsageRetention({ database, months: 0, organizationId: kept.id });
    off.start();
    expect(await off.runOnce()).toBeNull();
    await off.stop();
    expect(await rowsOf(kept.id)).toBe(13);
  });

  it('is configured by USAGE_RETENTION_MONTHS (default 13) and stops with the app', async () => {
    expect(loadConfig({}).usageRetentionMonths).toBe(13);
    expect(loadConfig({ USAGE_RETENTION_MONTHS: '0' }).usageRetentionMonths).toBe(0);
    for (const bad of ['-1', '1.5', 'a year', '1201']) {
      expect(() => loadConfig({ USAGE_RETENTION_MONTHS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ USAGE_RETENTION_MONTHS: bad })).toThrow(/USAGE_RETENTION_MONTHS/);
    }
    const t = await buildTestApp({ env: { USAGE_RETENTION_MONTHS: '24' } });
    await t.app.close(); // resolves: the job's timer is cleared and its start run awaited
  });
});
