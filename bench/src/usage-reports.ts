/**
 * npm run -w bench usage-reports -- [--engine postgres|pglite] [--rows N] [--url URL] [--runs R] [--fresh]
 *
 * Issue 16's figures: N usage rows (1,000,000 on PostgreSQL, 100,000 embedded by default) spread over the last 30
 * days across 50 users of one organization, with their hourly and daily rollups as metering writes them. Then,
 * in process (statement plus shaping, no HTTP), R runs each of: the month's daily series for the organization (in
 * UTC and in America/New_York), for one user, the range's totals, the first page of calls for the organization
 * and for one user; p50 and p95 beside a one-row primary-key select taken in the same run (the baseline). Last,
 * the CSV export of all the organization's rows: rows a second and the growth of resident memory while it runs.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CALL_METRICS, metricColumn } from '@tessera/common/usage';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { callsCsv, callsPage, type NameScope } from '@tessera/server/features/usage-reports/calls';
import { type ReportQuery, reportQuery, settle } from '@tessera/server/features/usage-reports/query';
import { seriesOf, totalsOf } from '@tessera/server/features/usage-reports/report';
import type { Who } from '@tessera/server/features/usage-reports/scope';
import { ensurePostgresDatabase } from './support/graph-database';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    rows: { type: 'string' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_usage' },
    runs: { type: 'string', default: '30' },
    fresh: { type: 'boolean', default: false },
  },
});
const postgres = values.engine === 'postgres';
const rows = Number(values.rows ?? (postgres ? 1_000_000 : 100_000));
const runs = Number(values.runs);
const log = (line: string) => console.error(`[usage-reports] ${line}`);
const ORG = 900_001;
const USERS = 50;
const FIRST_USER = 900_100;

if (postgres) await ensurePostgresDatabase(values.url!, values.fresh!);
const database = await openDatabase(
  postgres ? { url: values.url } : { dataDir: mkdtempSync(path.join(tmpdir(), 'tessera-usage-bench-')) },
);
await migrate(database);

const METRICS = CALL_METRICS.map(metricColumn);
const [{ have } = { have: 0 }] = await database.query<{ have: number }>(
  'select count(*)::int as have from usage where organization_id = $1',
  [ORG],
);
const [{ byUser } = { byUser: 0 }] = await database.query<{ byUser: number }>(
  `select count(*)::int as "byUser" from usage_rollups where organization_id = $1 and bucket = 'day-user'`,
  [ORG],
);
if (have !== rows || byUser === 0) {
  log(`seeding ${rows.toLocaleString('en-US')} usage rows`);
  const started = performance.now();
  await database.query('delete from usage where organization_id = $1', [ORG]);
  await database.query('delete from usage_rollups where organization_id = $1', [ORG]);
  // Most calls are GETs on a few paths, as a real customer's are; every user has one key.
  // Rows with no transaction id are counted as in the rollups already (decision 0045): the bench writes both itself.
  await database.query(
    `insert into usage (at, month, txid, request_id, user_id, organization_id, key_id, method, path, status, ${METRICS.join(', ')}, cost)
     select at, (date_trunc('month', at at time zone 'UTC'))::date, null, 'bench-usage-' || g, ${FIRST_USER} + g % ${USERS}, ${ORG},
       'benchkey' || (g % ${USERS}),
       (array['GET','GET','GET','GET','GET','GET','GET','POST','POST','PUT'])[1 + floor(random() * 10)::int],
       (array['/byEmail','/byEmail','/byEmail','/byEmail','/byPhone','/byPhone','/byPii','/byIp','/byMd5','/byAny'])[1 + floor(random() * 10)::int],
       200, ${METRICS.map(() => 'floor(random() * 4)::int').join(', ')}, round((random() * 0.01)::numeric, 6)
     from (select g, now() - random() * interval '30 days' as at from generate_series(1, $1::int) g) s`,
    [rows],
  );
  // As metering writes them: each key, method and path apart, and each user's calls together (decision 0028).
  for (const [bucket, unit, apart] of [
    ['hour', 'hour', true],
    ['day', 'day', true],
    ['hour-user', 'hour', false],
    ['day-user', 'day', false],
  ] as const) {
    const detail = apart ? 'key_id, method, path' : `'*', '*', '*'`;
    await database.query(
      `insert into usage_rollups (bucket, at, organization_id, user_id, key_id, method, path, requests, ${METRICS.join(', ')}, cost)
       select '${bucket}', date_trunc('${unit}', at, 'UTC'), organization_id, user_id, ${detail}, count(*),
         ${METRICS.map((c) => `sum(${c})`).join(', ')}, sum(cost)
       from usage where organization_id = $1 group by 1, 2, 3, 4, 5, 6, 7`,
      [ORG],
    );
  }
  await database.query('analyze usage');
  await database.query('analyze usage_rollups');
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const [{ rollups } = { rollups: 0 }] = await database.query<{ rollups: number }>(
  'select count(*)::int as rollups from usage_rollups where organization_id = $1',
  [ORG],
);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn(); // warm
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const query = (params: Record<string, string>): ReportQuery => {
  const settled = settle(reportQuery.parse(params));
  if ('message' in settled) throw new Error(settled.message);
  return settled;
};
const month = { from: new Date(Date.now() - 30 * 86_400_000).toISOString(), to: new Date().toISOString() };
const org: Who = { organizationId: ORG };
const user: Who = { userId: FIRST_USER + 7 };
/** The organization's administrator reading it: every call's user, organization and key named (issue 32). */
const viewer: NameScope = { across: false, userId: FIRST_USER, organizationId: ORG, admin: true };

const baseline = await time(() => database.query('select id from usage where id = (select min(id) from usage)'));
const results: [string, { p50: number; p95: number }][] = [
  ['primary-key select (baseline)', baseline],
  ['daily series, organization, UTC', await time(() => seriesOf(database, query({ ...month }), org))],
  [
    'daily series, organization, America/New_York',
    await time(() => seriesOf(database, query({ ...month, tz: 'America/New_York' }), org)),
  ],
  ['daily series, one user, UTC', await time(() => seriesOf(database, query({ ...month }), user))],
  [
    'daily series, one user, America/New_York',
    await time(() => seriesOf(database, query({ ...month, tz: 'America/New_York' }), user)),
  ],
  ['totals, organization', await time(() => totalsOf(database, query({ ...month }), org))],
  ['first page of calls (100), organization', await time(() => callsPage(database, query({ ...month }), org, viewer))],
  ['first page of calls (100), one user', await time(() => callsPage(database, query({ ...month }), user, viewer))],
];

// The CSV export of every row of the organization, to a sink that drops it. Resident memory, and (run with
// NODE_OPTIONS=--expose-gc) the live heap after a collection every half second: what the export really holds.
const collect = (globalThis as { gc?: () => void }).gc;
collect?.();
const rssBefore = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
let peak = rssBefore;
let heapPeak = heapBefore;
let bytes = 0;
let ticks = 0;
const watch = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
  if (collect && ++ticks % 10 === 0) {
    collect();
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
}, 50);
const exportStart = performance.now();
await pipeline(
  callsCsv(database, query({ ...month }), org, viewer),
  new Writable({
    write(chunk, _, done) {
      bytes += chunk.length;
      done();
    },
  }),
);
const exportSeconds = (performance.now() - exportStart) / 1000;
clearInterval(watch);
await database.close();

const engine = postgres ? 'PostgreSQL 15' : 'PGlite';
console.log(
  [
    `Usage reports on ${engine}: ${rows.toLocaleString('en-US')} usage rows over 30 days, ${USERS} users of one organization, ${rollups.toLocaleString('en-US')} rollup rows; ${runs} runs each, in process.`,
    '',
    '| report | p50 ms | p95 ms | p95 ÷ baseline p95 |',
    '|---|---|---|---|',
    ...results.map(
      ([name, r]) => `| ${name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${(r.p95 / baseline.p95).toFixed(1)} |`,
    ),
    '',
    `CSV export of ${rows.toLocaleString('en-US')} calls: ${exportSeconds.toFixed(1)} s, ${Math.round(rows / exportSeconds).toLocaleString('en-US')} rows/s, ${(bytes / 1e6).toFixed(1)} MB; resident memory grew ${((peak - rssBefore) / 1e6).toFixed(1)} MB at its peak${collect ? `; live heap after collection grew ${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB at its peak` : ' (run with NODE_OPTIONS=--expose-gc for the live heap)'}.`,
  ].join('\n'),
);
