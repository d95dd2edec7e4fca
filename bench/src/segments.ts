/**
 * npx tsx bench/src/segments.ts [--engine pglite|postgres] [--identities N] [--url URL] [--combinations C]
 *   [--counts-only]
 *
 * Issue 19's figures (decision 0035) on the generated graph (100,000 people embedded by default, 1,000,000 on
 * PostgreSQL), loaded once by the import as the other benches load it: the size count (the statement the route
 * runs, in process) for C random combinations of three filters, p50 and p95, beside a one-row primary-key select
 * in the same run; then one export of a segment of everyone through the Full template over real HTTP, read as a
 * stream by a client that throws the bytes away: rows a second, and the growth of this process's resident memory.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  BEHAVIOR_CATEGORIES,
  CREDIT_BANDS,
  FLAG_FILTERS,
  INCOME_BANDS,
  NET_WORTH_BANDS,
  type SegmentFilters,
} from '@tessera/common/segments';
import { US_STATES } from '@tessera/common/states';
import { openDatabase } from '@tessera/server/db/client';
import { countMembers } from '@tessera/server/features/segments/repo';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn } from '@tessera/server/test/harness';
import { prepareGraphDatabase } from './support/graph-database';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    identities: { type: 'string' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_segments' },
    combinations: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    /** Counts only (the export of everyone on 1,000,000 people takes many minutes here). */
    'counts-only': { type: 'boolean', default: false },
  },
});
const postgres = values.engine === 'postgres';
const identities = Number(values.identities ?? (postgres ? 1_000_000 : 100_000));
const log = (line: string) => console.error(`[segments] ${line}`);

const prepared = await prepareGraphDatabase({ postgres, identities, seed: values.seed!, url: values.url!, log });
const database = await openDatabase(postgres ? { url: values.url } : { dataDir: prepared.dataDir });

let state = 42;
const random = () => {
  state = (state * 1103515245 + 12345) % 2 ** 31;
  return state / 2 ** 31;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const some = <T>(list: readonly T[], most: number) => [
  ...new Set(Array.from({ length: 1 + Math.floor(random() * most) }, () => pick(list))),
];
const companies = (
  await database.query<{ name: string }>('select name from person_companies order by identity_id limit 500')
).map((r) => r.name);
const states = US_STATES.filter((s) => !s.territory).map((s) => s.abbreviation);

/** One random filter of each kind. */
const KINDS: (() => SegmentFilters)[] = [
  () => ({ states: some(states, 3) }),
  () => ({
    zipPrefixes: some(['1', '2', '3', '4', '5', '6', '7', '8', '9'], 2).map((d) => `${d}${Math.floor(random() * 10)}`),
  }),
  () => {
    const from = 18 + Math.floor(random() * 50);
    return { ageMin: from, ageMax: from + 5 + Math.floor(random() * 25) };
  },
  () => ({ genders: [pick(['F', 'M'])] }),
  () => ({ incomes: some(INCOME_BANDS, 3) }),
  () => ({ netWorths: some(NET_WORTH_BANDS, 3) }),
  () => ({ credits: some(CREDIT_BANDS, 2) }),
  () => ({ [pick(FLAG_FILTERS)]: random() < 0.7 }),
  () => ({ behaviors: [{ category: pick(BEHAVIOR_CATEGORIES) }] }),
  () => ({ companies: [pick(companies)] }),
];

function combination(): SegmentFilters {
  const kinds = new Set<number>();
  while (kinds.size < 3) kinds.add(Math.floor(random() * KINDS.length));
  return Object.assign({}, ...[...kinds].map((k) => KINDS[k]!()));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const ms = (n: number) => Number(n.toFixed(1));

async function timed(run: () => Promise<unknown>, times: number): Promise<{ p50: number; p95: number }> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return { p50: ms(percentile(took, 0.5)), p95: ms(percentile(took, 0.95)) };
}

const n = Number(values.combinations);
log(`counting ${n} random three-filter combinations over ${identities.toLocaleString('en-US')} people`);
await countMembers(database, {}); // warm the cache as a running server would be
const combos = Array.from({ length: n }, combination);
let i = 0;
const counts = await timed(() => countMembers(database, combos[i++ % n]!), n);
const baseline = await timed(
  () => database.query('select id from people where id = $1', [1 + Math.floor(random() * identities)]),
  n,
);
const [everyone] = await database.query<{ n: number }>('select count(*)::int as n from segment_attributes');

/** One export of everyone over HTTP: rows a second and resident memory. */
async function exportEveryone() {
  log('exporting a segment of everyone over HTTP');
  const t = await buildTestApp({ database });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await makeOrganization(database);
  await makeContract(database, org.id);
  const staff = await signIn(t.app, (await makeUser(database, 'super')).email);
  const user = await signIn(t.app, (await makeUser(database, 'user', org.id)).email);
  const made = await t.app.inject({
    method: 'POST',
    url: '/v2/segments',
    headers: { cookie: staff, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
    payload: { name: 'Everyone', filters: {}, organizationIds: [org.id] },
  });
  const segmentId = Object.keys(made.json().segments)[0];
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 100);
  const started = performance.now();
  const res = await fetch(`${address}/v2/segments/${segmentId}/export.csv`, { headers: { cookie: user } });
  let bytes = 0;
  let lines = 0;
  // Resident memory at each tenth of the rows: flat after the first tenth is constant memory (on PGlite the engine
  // is in this process, and its WebAssembly heap grows to its working set first and never gives memory back).
  const tenths: number[] = [];
  const tenth = Math.max(1, Math.floor((everyone?.n ?? 1) / 10));
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) {
      if (b !== 10) continue;
      lines++;
      if (lines % tenth === 0) tenths.push(Math.round(process.memoryUsage().rss / 1e6));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await t.app.close();
  return {
    status: res.status,
    rows: lines - 1,
    megabytes: Number((bytes / 1e6).toFixed(1)),
    seconds: Number(seconds.toFixed(1)),
    rowsPerSecond: Math.round((lines - 1) / seconds),
    rssGrowthMb: Math.round((rssPeak - rssBefore) / 1e6),
    rssAfterFirstTenthToEndMb: (tenths.at(-1) ?? 0) - (tenths[0] ?? 0),
    rssEachTenthMb: tenths,
  };
}

const exported = values['counts-only'] ? null : await exportEveryone();
await database.close();

const result = {
  engine: values.engine,
  identities,
  segmentAttributeRows: everyone?.n ?? 0,
  count: { combinations: n, ...counts },
  primaryKeySelect: baseline,
  export: exported,
};
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = path.join(import.meta.dirname, '..', 'results', `segments-${values.engine}-${stamp}`);
writeFileSync(`${out}.json`, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  `${out}.md`,
  `# Segments (${values.engine}, ${identities.toLocaleString('en-US')} people)\n\n` +
    `| measure | p50 ms | p95 ms |\n|---|---|---|\n` +
    `| size count, ${n} random three-filter combinations | ${counts.p50} | ${counts.p95} |\n` +
    `| one-row primary-key select (baseline) | ${baseline.p50} | ${baseline.p95} |\n\n` +
    (exported
      ? `Export of everyone (${exported.rows.toLocaleString('en-US')} rows, Full template, ${exported.megabytes} MB): ` +
        `${exported.rowsPerSecond.toLocaleString('en-US')} rows/s, resident memory grew ${exported.rssGrowthMb} MB in ` +
        `all, ${exported.rssAfterFirstTenthToEndMb} MB from the first tenth of the rows to the last ` +
        `(each tenth: ${exported.rssEachTenthMb.join(', ')} MB).\n`
      : 'No export (--counts-only).\n'),
);
console.log(JSON.stringify(result, null, 2));
