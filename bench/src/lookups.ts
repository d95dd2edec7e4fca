/**
 * npm run -w bench lookups -- [--engine pglite|postgres] [--identities N] [--seed S] [--url postgres://...]
 *   [--seconds 10] [--connections 16] [--stream-rows 1000000] [--latency-queries 500] [--pii-batch 250]
 *   [--quality-only]
 *
 * The lookup endpoints at N generated people: match quality of every labelled query kind through the endpoints
 * (located byPii and nationwide byPii as their own rows), the latency of one PII query at a time, load, and a
 * streamed CSV PUT. The graph and database are made once and reused (support/graph-database.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import { isNationwideQuery } from '@tessera/server/features/people/generate/queries';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { freePort, runChild } from '@tessera/server/test/process';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, createBenchUser } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';
import { serverRssMb as rssOf } from './support/memory';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    identities: { type: 'string' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'stream-rows': { type: 'string', default: '1000000' },
    /** PII queries of each kind (located, nationwide) timed one GET at a time for their latency percentiles. */
    'latency-queries': { type: 'string', default: '500' },
    /** Match quality and PII latency only: no load runs, no streamed PUT. */
    'quality-only': { type: 'boolean', default: false },
    /** Inputs per POST when measuring PII quality (a 1,000-input PII statement can pass the 10 s lookup budget on a cold cache). */
    'pii-batch': { type: 'string', default: '250' },
  },
});
const postgres = values.engine === 'postgres';
const identities = Number(values.identities ?? (postgres ? 1_000_000 : 100_000));
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const streamRows = Number(values['stream-rows']);
const log = (line: string) => console.error(`[bench] ${line}`);

// 1-2. The graph and the database, loaded once.
const { graph, dataDir, storage, importRate, pgbenchInit } = await prepareGraphDatabase({
  postgres,
  identities,
  seed: values.seed!,
  url: values.url!,
  log,
});

// 3. A user of the product (in the Demo organization, with its contract), and the server.
{
  const database = await openDatabase(postgres ? { url: values.url! } : { dataDir });
  try {
    await migrate(database);
    await ensureDemoOrganization(database);
  } finally {
    await database.close();
  }
}
const email = await createBenchUser(storage, 'bench');
const port = await freePort();
const server = runChild(['server/src/main.ts'], {
  ...storage,
  PORT: String(port),
  HOST: '127.0.0.1',
  SEED_IDENTITIES: '0',
});
// However the run ends, the server ends with it (a PGlite server killed mid-write can leave its folder unusable).
process.on('exit', () => server.proc.kill('SIGTERM'));
await server.waitFor('Tessera console:', 120_000);
const base = `http://127.0.0.1:${port}`;

const serverRssMb = () => rssOf(server);

const consoleHeaders = {
  'x-requested-with': 'XMLHttpRequest',
  'content-type': 'application/json',
  accept: 'application/json',
};
const cookie = await signInOverHttp(base, email, BENCH_PASSWORD);

// 4. The labelled queries.
interface Query {
  kind: string;
  input: Record<string, string>;
  identityId: number | null;
}
const queries: Query[] = readFileSync(path.join(graph, 'queries.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const emails = queries.filter((q) => q.kind === 'email' && q.identityId !== null).map((q) => q.input.email!);
// Located byPii (a zip, or a city and state) and nationwide byPii (a street line alone, decision 0027): their own rows.
const pii = queries.filter((q) => q.kind === 'pii' && !isNationwideQuery(q));
const piiNationwide = queries.filter((q) => isNationwideQuery(q));

async function postJson(
  pathName: string,
  body: unknown,
): Promise<{ results: { identities: { id: number; score: number }[] }[] }> {
  const res = await fetch(`${base}${pathName}`, {
    method: 'POST',
    headers: { ...consoleHeaders, cookie },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${pathName}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { results: { identities: { id: number; score: number }[] }[] };
}

// 5. Match quality through the endpoints (top result against the label).
async function quality(kind: string, endpoint: string, selected: Query[], size = 1000) {
  const tally = { queries: selected.length, truePositive: 0, wrong: 0, missed: 0, falseAlarm: 0, trueNegative: 0 };
  for (let i = 0; i < selected.length; i += size) {
    const batch = selected.slice(i, i + size);
    const { results } = await postJson(`/v2/identities/${endpoint}`, {
      inputs: batch.map((q) => q.input),
      template: 3,
    });
    batch.forEach((q, j) => {
      const top = results[j]!.identities[0]?.id ?? null;
      if (q.identityId === null) tally[top === null ? 'trueNegative' : 'falseAlarm']++;
      else if (top === q.identityId) tally.truePositive++;
      else tally[top === null ? 'missed' : 'wrong']++;
    });
  }
  const answered = tally.truePositive + tally.wrong + tally.falseAlarm;
  const positives = tally.truePositive + tally.wrong + tally.missed;
  return {
    kind,
    ...tally,
    precision: answered ? Number((tally.truePositive / answered).toFixed(4)) : null,
    recall: positives ? Number((tally.truePositive / positives).toFixed(4)) : null,
  };
}
log('measuring match quality');
const exactKinds = [...new Set(queries.filter((q) => q.kind !== 'pii').map((q) => q.kind))];
const piiBatch = Number(values['pii-batch']);
const qualityRows = [
  await quality('pii', 'byPii', pii, piiBatch),
  await quality('pii-nationwide', 'byPii', piiNationwide, piiBatch),
];
for (const kind of exactKinds)
  qualityRows.push(
    await quality(
      kind,
      'byAny',
      queries.filter((q) => q.kind === kind),
    ),
  );

// 5b. Latency of one PII query at a time (a GET each, nothing else running), evenly spread over each set.
interface LatencyRow {
  kind: string;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}
async function latency(kind: string, selected: Query[]): Promise<LatencyRow> {
  const count = Math.min(selected.length, Number(values['latency-queries']));
  const step = selected.length / count;
  const times: number[] = [];
  for (let k = 0; k < count; k++) {
    const q = selected[Math.floor(k * step)]!;
    const started = performance.now();
    const res = await fetch(`${base}/v2/identities/byPii?${new URLSearchParams(q.input)}`, {
      headers: { ...consoleHeaders, cookie },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`byPii ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(1));
  return { kind, queries: count, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99), maxMs: at(1) };
}
log('timing PII queries one at a time');
const latencyRows = [await latency('pii', pii), await latency('pii-nationwide', piiNationwide)];
log(JSON.stringify(latencyRows));
const qualityOnly = values['quality-only'] === true;

// 6. Load.
interface LoadRow {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  serverRssMb: number;
}
let peakRss = serverRssMb();
const restRss = peakRss;
async function run(
  name: string,
  request: () => { method: 'GET' | 'POST'; path: string; body?: string },
): Promise<LoadRow> {
  log(name);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, serverRssMb());
  }, 250);
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { ...consoleHeaders, cookie },
    requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }],
  });
  clearInterval(sampler);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    serverRssMb: serverRssMb(),
  };
}
let n = 0;
const nextEmail = () => emails[n++ % emails.length]!;
const piiInputs = pii.filter((q) => q.identityId !== null).map((q) => q.input);
const nationwideInputs = piiNationwide.filter((q) => q.identityId !== null).map((q) => q.input);
const loadRows = qualityOnly
  ? []
  : [
      await run('GET byEmail', () => ({
        method: 'GET',
        path: `/v2/identities/byEmail?email=${encodeURIComponent(nextEmail())}`,
      })),
      await run('GET byPii', () => ({
        method: 'GET',
        path: `/v2/identities/byPii?${new URLSearchParams(piiInputs[n++ % piiInputs.length]!)}`,
      })),
      await run('GET byPii nationwide', () => ({
        method: 'GET',
        path: `/v2/identities/byPii?${new URLSearchParams(nationwideInputs[n++ % nationwideInputs.length]!)}`,
      })),
      await run('POST byEmail, 100 e-mails', () => ({
        method: 'POST',
        path: '/v2/identities/byEmail',
        body: JSON.stringify({ inputs: Array.from({ length: 100 }, nextEmail) }),
      })),
    ];

// 7. A streamed PUT of many rows.
async function streamPut() {
  log(`streaming ${streamRows} CSV rows`);
  const beforeStream = serverRssMb();
  let streamPeak = beforeStream;
  const sampler = setInterval(() => {
    streamPeak = Math.max(streamPeak, serverRssMb());
  }, 200);
  async function* csvBody() {
    yield 'email\n';
    for (let i = 0; i < streamRows; i += 1000) {
      let chunk = '';
      for (let j = i; j < Math.min(streamRows, i + 1000); j++) chunk += `${emails[j % emails.length]}\n`;
      yield chunk;
    }
  }
  const streamStarted = performance.now();
  const put = await fetch(`${base}/v2/identities/byEmail?template=3`, {
    method: 'PUT',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'text/csv', cookie },
    body: Readable.toWeb(Readable.from(csvBody())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  let lines = 0;
  for await (const chunk of put.body as unknown as AsyncIterable<Uint8Array>) {
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const streamSeconds = (performance.now() - streamStarted) / 1000;
  clearInterval(sampler);
  const stream = {
    rows: streamRows,
    status: put.status,
    linesBack: lines,
    seconds: Number(streamSeconds.toFixed(1)),
    rowsPerSecond: Math.round(streamRows / streamSeconds),
    serverRssBeforeMb: beforeStream,
    serverRssPeakMb: streamPeak,
    growthMb: streamPeak - beforeStream,
  };
  return stream;
}
const stream = qualityOnly ? null : await streamPut();

server.proc.kill('SIGTERM');
await server.exited;

// 8. Report.
const report = {
  at: new Date().toISOString(),
  engine: postgres ? 'PostgreSQL' : 'PGlite',
  identities,
  seed: values.seed,
  seconds,
  connections,
  importRate,
  pgbenchInit,
  quality: qualityRows,
  piiLatency: latencyRows,
  load: loadRows,
  serverRssMb: { atRestAfterLoad: restRss, peakDuringLoad: peakRss },
  stream,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = report.at.replace(/[:.]/g, '-');
writeFileSync(path.join(dir, `lookups-${values.engine}-${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
const md = [
  `# Lookups ${report.at}: ${report.engine}, ${identities.toLocaleString('en-US')} people (seed ${values.seed})`,
  '',
  importRate
    ? `Import: ${importRate.perSecond.toLocaleString('en-US')} identities/s (${importRate.seconds} s)${pgbenchInit ? `; pgbench -i -s 10 (1,000,000 rows): ${pgbenchInit.seconds} s` : ''}.`
    : 'Import: already loaded (not measured this run).',
  '',
  '| quality | queries | precision | recall | wrong | false alarms |',
  '|---|---|---|---|---|---|',
  ...qualityRows.map(
    (q) => `| ${q.kind} | ${q.queries} | ${q.precision} | ${q.recall} | ${q.wrong} | ${q.falseAlarm} |`,
  ),
  '',
  '| PII latency (one GET at a time) | queries | p50 ms | p95 ms | p99 ms | max ms |',
  '|---|---|---|---|---|---|',
  ...latencyRows.map((r) => `| ${r.kind} | ${r.queries} | ${r.p50Ms} | ${r.p95Ms} | ${r.p99Ms} | ${r.maxMs} |`),
  '',
  ...(qualityOnly
    ? ['Load: not run (--quality-only).']
    : [
        `| load (${seconds} s, ${connections} connections) | req/s | p50 ms | p99 ms | non-2xx+errors |`,
        '|---|---|---|---|---|',
        ...loadRows.map(
          (r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx + r.errors} |`,
        ),
        '',
        `Server memory: ${restRss} MB before load, ${peakRss} MB peak under load.`,
      ]),
  stream === null
    ? 'CSV stream: not run (--quality-only).'
    : `CSV stream: ${stream.rows.toLocaleString('en-US')} rows in ${stream.seconds} s (${stream.rowsPerSecond.toLocaleString('en-US')} rows/s), status ${stream.status}, ${stream.linesBack.toLocaleString('en-US')} lines back; server memory ${stream.serverRssBeforeMb} MB before, ${stream.serverRssPeakMb} MB peak (+${stream.growthMb} MB).`,
  '',
].join('\n');
writeFileSync(path.join(dir, `lookups-${values.engine}-${stamp}.md`), md);
console.log(md);
