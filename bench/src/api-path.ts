/**
 * npm run -w bench api-path -- [--engine pglite|postgres] [--identities N] [--seed S] [--url URL]
 *                               [--seconds S] [--connections C] [--templates 3,2]
 *
 * Issue 5's figures, all in one run on this machine with the load generator on it too: a bare Fastify hello (B);
 * `pgbench -S` select-only on the same PostgreSQL server (P); then the full API path for GET byEmail with an API key
 * (key check, contract, rate limits, lookup, score, template, metering) at its maximum rate, at 80 % of it (p99),
 * on the same server with metering off, and with metering on but the lookup audit trail's rows dropped; with
 * `--templates`, the maximum-rate run again (metering on and off) once per template id listed (`&template=N`, e.g. 3 Emails Only, 2 Compact Contacts); the cost of a cached key check
 * beside B's cost per request; usage rows against the 2xx calls served; and the server's peak resident memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import { parseAuthorization } from '@tessera/server/features/keys/credentials';
import { lazySealer, loadKeyEncryptionKey } from '@tessera/server/features/keys/secrets';
import { createKeyVerifier } from '@tessera/server/features/keys/verify';
import { memoryFanout } from '@tessera/server/socket/fanout';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { type Child, freePort, runChild } from '@tessera/server/test/process';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { BENCH_PASSWORD, createBenchUser, graphEmails } from './support/bench-user';
import { ensurePostgresDatabase, prepareGraphDatabase } from './support/graph-database';
import { serverRssMb } from './support/memory';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    identities: { type: 'string' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    templates: { type: 'string', default: '' },
  },
});
const postgres = values.engine === 'postgres';
const identities = Number(values.identities ?? (postgres ? 1_000_000 : 100_000));
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const templateIds = values.templates!.split(',').filter(Boolean).map(Number);
const log = (line: string) => console.error(`[api-path] ${line}`);

const { graph, dataDir, storage } = await prepareGraphDatabase({
  postgres,
  identities,
  seed: values.seed!,
  url: values.url!,
  log,
});
const open = () => openDatabase(postgres ? { url: values.url! } : { dataDir });
{
  const database = await open();
  try {
    await migrate(database);
    await ensureDemoOrganization(database);
  } finally {
    await database.close();
  }
}
const email = await createBenchUser(storage, 'api-path');
const emails = graphEmails(graph);

interface Run {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
}
async function load(
  name: string,
  url: string,
  options: { headers?: Record<string, string>; path?: () => string; rate?: number; amount?: number } = {},
): Promise<Run> {
  log(name);
  const result = await autocannon({
    url,
    connections,
    ...(options.amount ? { amount: options.amount } : { duration: seconds }),
    headers: options.headers ?? {},
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.path ? { requests: [{ setupRequest: (req) => ({ ...req, path: options.path!() }) }] } : {}),
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

// B: a bare Fastify hello, in this process as in `npm run bench`.
const hello = Fastify({ logger: false });
hello.get('/', async () => ({ hello: 'world' }));
const b = await load('bare Fastify hello JSON (B)', await hello.listen({ port: 0, host: '127.0.0.1' }));
await hello.close();

// P: pgbench -S on the same PostgreSQL server.
let p: { tps: number } | null = null;
if (postgres) {
  const url = new URL(values.url!);
  const pgbenchUrl = Object.assign(new URL(url), { pathname: '/tessera_pgbench' }).href;
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres'];
  await ensurePostgresDatabase(pgbenchUrl, false);
  const hasTables = (() => {
    try {
      execFileSync('psql', [...args, '-d', 'tessera_pgbench', '-Atc', 'select 1 from pgbench_accounts limit 1'], {
        stdio: 'pipe',
      });
      return true;
    } catch {
      return false;
    }
  })();
  if (!hasTables) execFileSync('pgbench', ['-i', '-q', '-s', '10', ...args, 'tessera_pgbench'], { stdio: 'ignore' });
  log('pgbench -S (P)');
  const out = execFileSync(
    'pgbench',
    ['-S', '-n', '-c', String(connections), '-j', '2', '-T', String(seconds), ...args, 'tessera_pgbench'],
    { encoding: 'utf8' },
  );
  p = { tps: Math.round(Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0)) };
}

// The full API path, with metering on and then off, on the same server build.
async function startServer(metering: 'on' | 'off' | 'no-audit'): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const child = runChild(['bench/src/api-server.ts'], {
    ...storage,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_IDENTITIES: '0',
    BENCH_METERING: metering,
  });
  process.on('exit', () => child.proc.kill('SIGTERM'));
  await child.waitFor('api-server listening', 120_000);
  return { child, base: `http://127.0.0.1:${port}` };
}
async function stopServer(child: Child) {
  child.proc.kill('SIGTERM');
  await child.exited;
}

let n = 0;
const nextPath = () => `/v2/identities/byEmail?email=${encodeURIComponent(emails[n++ % emails.length]!)}`;
const templated: Run[] = [];
async function loadTemplates(base: string, headers: Record<string, string>, metering: 'on' | 'off') {
  for (const id of templateIds) {
    const path = () => `${nextPath()}&template=${id}`;
    templated.push(
      await load(`GET byEmail, template ${id}, metering ${metering}: maximum rate`, base, { headers, path }),
    );
  }
}
let key: { id: string; secret: string };
let peakRss = 0;
let rss = { restMb: 0, peakMb: 0 };
let served = 0;
let accountingKey = '';
const full: Run[] = [];
{
  const { child, base } = await startServer('on');
  const cookie = await signInOverHttp(base, email, BENCH_PASSWORD);
  const made = await fetch(`${base}/v2/keys`, {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'api-path bench' }),
  });
  key = Object.values(((await made.json()) as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
  const headers = { authorization: `Bearer ${key.id}${key.secret}` };
  const restRss = serverRssMb(child);
  peakRss = restRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, serverRssMb(child));
  }, 250);
  await load('warm-up', base, { headers, path: nextPath });
  full.push(await load('GET byEmail, API key, metering on: maximum rate', base, { headers, path: nextPath }));
  await loadTemplates(base, headers, 'on');
  const rate = Math.max(1, Math.round(full[0]!.requestsPerSecond * 0.8));
  full.push(await load(`GET byEmail at 80 % of the maximum (${rate} req/s)`, base, { headers, path: nextPath, rate }));
  clearInterval(sampler);
  // Accounting: a run of a fixed number of calls (a timed run stops with calls in flight that the server serves and
  // meters but the load generator never counts) on a key of its own.
  const second = await fetch(`${base}/v2/keys`, {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'api-path accounting' }),
  });
  const counted = Object.values(
    ((await second.json()) as { keys: Record<string, { id: string; secret: string }> }).keys,
  )[0]!;
  accountingKey = counted.id;
  const accounting = await load('accounting: 3,000 calls', base, {
    headers: { authorization: `Bearer ${counted.id}${counted.secret}` },
    path: nextPath,
    amount: 3000,
  });
  served = accounting.ok;
  await stopServer(child);
  rss = { restMb: restRss, peakMb: peakRss };
}

// Usage rows against the calls served: every 2xx of the metered runs (warm-up included) has exactly one row.
let usageRows = 0;
{
  const database = await open();
  try {
    const [row] = await database.query<{ n: number }>('select count(*)::int as n from usage where key_id = $1', [
      accountingKey,
    ]);
    usageRows = row!.n;
  } finally {
    await database.close();
  }
}

{
  const { child, base } = await startServer('off');
  const headers = { authorization: `Bearer ${key!.id}${key!.secret}` };
  await load('warm-up', base, { headers, path: nextPath });
  full.push(await load('GET byEmail, API key, metering off: maximum rate', base, { headers, path: nextPath }));
  await loadTemplates(base, headers, 'off');
  await stopServer(child);
}

// The lookup audit trail's cost (issue 22): usage rows written as ever, the audit rows they carry dropped.
{
  const { child, base } = await startServer('no-audit');
  const headers = { authorization: `Bearer ${key!.id}${key!.secret}` };
  await load('warm-up', base, { headers, path: nextPath });
  full.push(
    await load('GET byEmail, API key, metering on, audit trail off: maximum rate', base, { headers, path: nextPath }),
  );
  await stopServer(child);
}

// The cost of a cached key check, in this process: parse the header, find the key, hash and compare.
let verifyNs = 0;
{
  const database = await open();
  try {
    const verifier = createKeyVerifier({
      database,
      fanout: memoryFanout(),
      sealer: lazySealer(() => loadKeyEncryptionKey(database, null)),
    });
    const header = `Bearer ${key!.id}${key!.secret}`;
    await verifier.verify(parseAuthorization(header)!, '127.0.0.1');
    const rounds = 200_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await verifier.verify(parseAuthorization(header)!, '127.0.0.1');
    verifyNs = Number(process.hrtime.bigint() - started) / rounds;
  } finally {
    await database.close();
  }
}

const [max, at80, off, noAudit] = full as [Run, Run, Run, Run];
const report = {
  at: new Date().toISOString(),
  engine: postgres ? 'PostgreSQL' : 'PGlite',
  identities,
  seconds,
  connections,
  baseline: b,
  pgbenchSelectOnly: p,
  full,
  templated,
  ratios: {
    fullToP: p ? Number((max.requestsPerSecond / p.tps).toFixed(3)) : null,
    meteringOnToOff: Number((max.requestsPerSecond / off.requestsPerSecond).toFixed(3)),
    auditOnToOff: Number((max.requestsPerSecond / noAudit.requestsPerSecond).toFixed(3)),
    keyCheckToB: Number((verifyNs / (1e9 / b.requestsPerSecond)).toFixed(4)),
  },
  keyCheckNs: Math.round(verifyNs),
  usage: { served2xx: served, rows: usageRows, equal: served === usageRows },
  serverRssMb: rss,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = `api-path-${values.engine}-${report.at.replace(/[:.]/g, '-')}`;
writeFileSync(path.join(dir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
const md = [
  `# API path ${report.at}: ${report.engine}, ${identities.toLocaleString('en-US')} people`,
  '',
  `${seconds} s per run, ${connections} connections, load generator on the same machine.`,
  '',
  '| run | req/s | p50 ms | p99 ms | 2xx | non-2xx+errors |',
  '|---|---|---|---|---|---|',
  ...[b, ...full, ...templated].map(
    (r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.ok} | ${r.non2xx + r.errors} |`,
  ),
  '',
  p
    ? `pgbench -S (P), same server: ${p.tps} tps. Full path ÷ P: ${report.ratios.fullToP} (target ≥ 0.35).`
    : 'P: PostgreSQL only.',
  `Metering on ÷ off: ${report.ratios.meteringOnToOff} (target ≥ 0.8). p99 at 80 % of the maximum: ${at80.p99Ms} ms (target ≤ 20).`,
  `Lookup audit trail on ÷ off (metering on in both): ${report.ratios.auditOnToOff}.`,
  `Cached key check: ${report.keyCheckNs} ns, ${(report.ratios.keyCheckToB * 100).toFixed(2)} % of B's cost per request (target ≤ 10 %).`,
  `Usage rows of the accounting key: ${usageRows}; 2xx answers it received in its run of 3,000 calls: ${served} (${served === usageRows ? 'equal' : 'NOT equal'}).`,
  `Server memory: ${rss.restMb} MB at rest, ${rss.peakMb} MB peak under load (metering on).`,
  '',
].join('\n');
writeFileSync(path.join(dir, `${stamp}.md`), md);
console.log(md);
