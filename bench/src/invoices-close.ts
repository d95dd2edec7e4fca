/**
 * npm run -w bench invoices-close -- [--engine postgres|pglite] [--orgs N] [--url URL] [--fresh]
 *
 * Issue 19's figure: the monthly close (decision 0034) for N organizations (1,000 by default), each with a
 * contract in force and a month of hourly per-user rollups (one user, every hour of June 2020), as metering writes
 * them. The month's invoices are deleted, then closed once (timed: every invoice issued), then closed again (timed:
 * nothing new issued).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { closeMonth } from '@tessera/server/features/invoices/repo';
import { ensurePostgresDatabase } from './support/graph-database';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    orgs: { type: 'string', default: '1000' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_invoices' },
    fresh: { type: 'boolean', default: false },
  },
});
const postgres = values.engine === 'postgres';
const orgs = Number(values.orgs);
const MONTH = '2020-06';
const log = (line: string) => console.error(`[invoices-close] ${line}`);

if (postgres) await ensurePostgresDatabase(values.url!, values.fresh!);
const database = await openDatabase(
  postgres ? { url: values.url } : { dataDir: mkdtempSync(path.join(tmpdir(), 'tessera-invoices-bench-')) },
);
await migrate(database);

const [{ have } = { have: 0 }] = await database.query<{ have: number }>(
  `select count(*)::int as have from organizations where name like 'bench-invoices-%'`,
);
if (have !== orgs) {
  const started = performance.now();
  log(`seeding ${orgs} organizations with a month of hourly rollups`);
  await database.query(`delete from invoices where month = $1`, [MONTH]);
  await database.query(
    `delete from usage_rollups where organization_id in (select id from organizations where name like 'bench-invoices-%')`,
  );
  await database.query(
    `delete from contracts where organization_id in (select id from organizations where name like 'bench-invoices-%')`,
  );
  await database.query(`delete from organizations where name like 'bench-invoices-%'`);
  await database.query(
    `insert into organizations (name) select 'bench-invoices-' || g from generate_series(1, $1::int) g`,
    [orgs],
  );
  await database.query(
    `insert into contracts (organization_id, name, starts_at, ends_at, status, price_per_request, price_per_identity, group_prices)
     select id, 'bench', '2020-01-01', '2021-01-01', 'active', 0.001, 0.0125, '{"emails": 0.005, "phones": 0.004}'::jsonb
     from organizations where name like 'bench-invoices-%'`,
  );
  await database.query(
    `insert into usage_rollups (bucket, at, organization_id, user_id, key_id, method, path, requests, identities,
       identities_with_emails, identities_with_phones, cost)
     select 'hour-user', h, o.id, 1, '*', '*', '*', 1 + floor(random() * 100)::int, floor(random() * 200)::int,
       floor(random() * 50)::int, floor(random() * 50)::int, 0
     from organizations o cross join generate_series('2020-06-01'::timestamptz, '2020-06-30 23:00'::timestamptz, '1 hour') h
     where o.name like 'bench-invoices-%'`,
  );
  await database.query('analyze usage_rollups');
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await database.query(`delete from invoices where month = $1`, [MONTH]);
let t = performance.now();
const first = await closeMonth(database, MONTH);
const firstMs = performance.now() - t;
t = performance.now();
const second = await closeMonth(database, MONTH);
const secondMs = performance.now() - t;
const [{ rollups } = { rollups: 0 }] = await database.query<{ rollups: number }>(
  `select count(*)::int as rollups from usage_rollups r join organizations o on o.id = r.organization_id
   where o.name like 'bench-invoices-%'`,
);
const result = {
  engine: values.engine,
  organizations: orgs,
  rollupRows: rollups,
  firstClose: { issued: first.issued.length, ms: Math.round(firstMs) },
  secondClose: { issued: second.issued.length, ms: Math.round(secondMs) },
};
console.log(JSON.stringify(result, null, 2));
await database.close();
