/**
 * The rollup aggregator (decision 0045): every usage row counted once, whatever runs at once or fails half way, and
 * every total read through `usage_totals` equal to the calls written, before and after a run.
 */
import { randomUUID } from 'node:crypto';
import { CALL_METRICS, type CallMetrics, emptyMetrics, metricColumn } from '@tessera/common/usage';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../db/client';
import { testDatabase } from '../../test/harness';
import { rollUpAll } from '../../test/usage-rollups';
import { type UsageEvent, writeUsage } from '../usage/metering';
import { aggregateUsage } from './aggregator';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const organization = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
function events(n: number, organizationId: number): UsageEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    requestId: randomUUID(),
    userId: 7,
    organizationId,
    keyId: i % 2 === 0 ? 'even' : 'odd',
    method: 'GET',
    path: '/byEmail',
    status: 200,
    metrics: { ...emptyMetrics(), inputs: 1, identities: 3 },
    costMicros: 2500,
  }));
}

type Sums = Record<string, [requests: number, identities: number, cost: number]>;
async function sums(table: 'usage_totals' | 'usage_rollups', organizationId: number): Promise<Sums> {
  const rows = await database.query<{ bucket: string; requests: string; identities: string; cost: string }>(
    `select bucket, sum(requests) as requests, sum(identities) as identities, sum(cost) as cost from ${table}
     where organization_id = $1 group by bucket order by bucket`,
    [organizationId],
  );
  return Object.fromEntries(rows.map((r) => [r.bucket, [Number(r.requests), Number(r.identities), Number(r.cost)]]));
}
const all = (n: number): Sums =>
  Object.fromEntries(['day', 'day-user', 'hour', 'hour-user'].map((b) => [b, [n, 3 * n, n * 0.0025]]));

describe('the usage rollup aggregator', () => {
  it('keeps every total equal to the calls written, before and after it runs', async () => {
    const org = organization();
    await writeUsage(database, events(12, org));
    // Before any run the calls are in the tail, and the totals already count them.
    expect(await sums('usage_totals', org)).toEqual(all(12));
    await rollUpAll(database);
    expect(await sums('usage_rollups', org)).toEqual(all(12));
    expect(await sums('usage_totals', org)).toEqual(all(12));
    // Calls after the run: rollups plus the new tail.
    await writeUsage(database, events(5, org));
    expect(await sums('usage_totals', org)).toEqual(all(17));
    await rollUpAll(database);
    expect(await sums('usage_rollups', org)).toEqual(all(17));
    expect(await sums('usage_totals', org)).toEqual(all(17));
  });

  it('carries every metric of CALL_METRICS through the log, the tail and the rollups (none listed by hand is missed)', async () => {
    const org = organization();
    const metrics = Object.fromEntries(CALL_METRICS.map((m, i) => [m, i + 1])) as CallMetrics;
    const [one] = events(1, org);
    await writeUsage(database, [{ ...one!, metrics }]);
    const read = async (table: 'usage_totals' | 'usage_rollups') => {
      const [row] = await database.query<Record<string, string>>(
        `select ${CALL_METRICS.map((m) => `sum(${metricColumn(m)}) as "${m}"`).join(', ')} from ${table}
         where organization_id = $1 and bucket = 'day'`,
        [org],
      );
      return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
    };
    expect(await read('usage_totals')).toEqual(metrics);
    await rollUpAll(database);
    expect(await read('usage_rollups')).toEqual(metrics);
    expect(await read('usage_totals')).toEqual(metrics);
  });

  it('keeps each bucket’s latest call to the moment, whatever order the calls commit and runs count them in', async () => {
    const org = organization();
    const hour = new Date(Date.UTC(2026, 10, 2, 10));
    const at = (minutes: number, seconds = 0) => new Date(hour.getTime() + minutes * 60_000 + seconds * 1000);
    const latest = async (table: 'usage_totals' | 'usage_rollups') => {
      const rows = await database.query<{ bucket: string; key_id: string; last: Date | string }>(
        `select bucket, key_id, max(last_at) as last from ${table} where organization_id = $1
         group by bucket, key_id order by bucket, key_id`,
        [org],
      );
      return Object.fromEntries(rows.map((r) => [`${r.bucket} ${r.key_id}`, new Date(r.last).toISOString()]));
    };
    const expected = (even: Date, odd: Date) => {
      const both = new Date(Math.max(even.getTime(), odd.getTime())).toISOString();
      return {
        'day even': even.toISOString(),
        'day odd': odd.toISOString(),
        'day-user *': both,
        'hour even': even.toISOString(),
        'hour odd': odd.toISOString(),
        'hour-user *': both,
      };
    };
    // The later call commits first; the earlier one after it, in the same hour.
    await writeUsage(database, events(2, org), at(59, 30));
    await writeUsage(database, events(2, org), at(12));
    expect(await latest('usage_totals')).toEqual(expected(at(59, 30), at(59, 30)));
    await rollUpAll(database);
    expect(await latest('usage_rollups')).toEqual(expected(at(59, 30), at(59, 30)));
    // A later run adding an earlier call keeps the latest; one adding a later call moves it.
    await writeUsage(database, [events(1, org)[0]!], at(1));
    await rollUpAll(database);
    expect(await latest('usage_rollups')).toEqual(expected(at(59, 30), at(59, 30)));
    await writeUsage(database, [events(1, org)[0]!], at(59, 45));
    expect(await latest('usage_totals')).toEqual(expected(at(59, 45), at(59, 30)));
    await rollUpAll(database);
    expect(await latest('usage_rollups')).toEqual(expected(at(59, 45), at(59, 30)));
    expect(await latest('usage_totals')).toEqual(expected(at(59, 45), at(59, 30)));
  });

  it('counts each row once when runs start together', async () => {
    const org = organization();
    await Promise.all([writeUsage(database, events(20, org)), writeUsage(database, events(20, org))]);
    const runs = await Promise.all(Array.from({ length: 6 }, () => aggregateUsage(database)));
    expect(runs.some((r) => r.claimed)).toBe(true);
    await rollUpAll(database);
    expect(await sums('usage_rollups', org)).toEqual(all(40));
    expect(await sums('usage_totals', org)).toEqual(all(40));
  });

  it('counts nothing from a run that fails before it commits, and all of it in the next', async () => {
    await rollUpAll(database);
    const org = organization();
    await writeUsage(database, events(9, org));
    const [before] = await database.query<{ txid: string }>('select txid::text as txid from usage_rollup_watermark');
    const crash = new Error('crashed before commit');
    // A run reaches its commit only when it has rows to count: one older transaction still open anywhere on the
    // server (another test's) holds them back for a moment, and such a run returns without reaching it.
    let failure: unknown = null;
    for (let attempt = 0; attempt < 400 && !failure; attempt++) {
      failure = await aggregateUsage(database, {
        beforeCommit: async () => {
          throw crash;
        },
      }).then(
        () => null,
        (error: unknown) => error,
      );
      if (!failure) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(failure).toBe(crash);
    const [after] = await database.query<{ txid: string }>('select txid::text as txid from usage_rollup_watermark');
    expect(after!.txid).toBe(before!.txid);
    expect(await sums('usage_rollups', org)).toEqual({});
    expect(await sums('usage_totals', org)).toEqual(all(9));
    await rollUpAll(database);
    expect(await sums('usage_rollups', org)).toEqual(all(9));
  });

  // The server-postgres project's database (the PGlite project has none, whatever the environment holds).
  it.runIf(inject('databaseUrl'))(
    'leaves the rows of a transaction still open for a later run, and counts them once it commits',
    async () => {
      const raw = database.raw;
      if (raw.kind !== 'postgres') throw new Error('PostgreSQL only');
      const org = organization();
      const open = new pg.Client({ connectionString: raw.url });
      await open.connect();
      try {
        await open.query('begin');
        await open.query(
          `insert into usage (request_id, user_id, organization_id, key_id, method, path, status, inputs, cost)
           values ($1, 7, $2, 'k', 'GET', '/byEmail', 200, 1, 0.5)`,
          [randomUUID(), org],
        );
        // Committed after the open one began: a newer transaction id than the open one's.
        await writeUsage(database, events(2, org));
        const run = await aggregateUsage(database);
        const [{ txid: openTxid }] = (await open.query<{ txid: string }>('select pg_current_xact_id()::text as txid'))
          .rows as [{ txid: string }];
        if (run.claimed && run.to) expect(BigInt(run.to) <= BigInt(openTxid)).toBe(true);
        // The open row is in no total yet (it has not committed); the two committed ones are, in the tail.
        expect((await sums('usage_totals', org)).day).toEqual([2, 6, 0.005]);
        await open.query('commit');
        expect((await sums('usage_totals', org)).day).toEqual([3, 6, 0.505]);
        await rollUpAll(database);
        expect((await sums('usage_rollups', org)).day).toEqual([3, 6, 0.505]);
        expect((await sums('usage_totals', org)).day).toEqual([3, 6, 0.505]);
      } finally {
        await open.query('rollback').catch(() => {});
        await open.end();
      }
    },
  );
});
