/**
 * npm run -w bench metering-rounds -- [--url URL] [--identities N] [--rounds R] [--seconds S] [--connections 16,64]
 *   [--writers W]
 *
 * Issue 27's figures, measured as the house asks, on the server as `npm start` runs it (compiled, default log level,
 * a worker per core; bench/src/support/operator.ts), GET byEmail with an API key on PostgreSQL, inputs drawn in turn
 * from the imported people's e-mails. Four servers of that one build are up together and loaded in turn, in interleaved
 * rounds (off, on, off1, on1 at each connection count, round after round):
 *   on / off     metering on and off, a worker per core (the default);
 *   on1 / off1   the same with WEB_CONCURRENCY=1.
 * Per round: on ÷ off (metering's cost); (on ÷ on1) ÷ (off ÷ off1) (what the write path does to a second process).
 * Then, with only `on` up, pgbench -S and `on` in turn at 64 connections (the full path against PostgreSQL's own
 * simplest read); then p99 latency at 80 % of the metered maximum at 16 connections (a fixed request rate).
 * Reported: the median of the per-round ratios with the load average beside it. The database name comes from --url, so two runs on one PostgreSQL need not
 * collide. Also checks that the metered servers wrote exactly one usage row per 2xx they answered.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchKey, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';
import { buildOperatorServer, type OperatorServer, startOperatorServer } from './support/operator';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    identities: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16,64' },
    /** Usage writers per process of the metered servers, to try another number than the server's own. */
    writers: { type: 'string' },
  },
});
const log = (line: string) => console.error(`[metering-rounds] ${line}`);
const { graph, storage } = await prepareGraphDatabase({
  postgres: true,
  identities: Number(values.identities),
  seed: '1',
  url: values.url!,
  log,
});
{
  const database = await openDatabase({ url: values.url! });
  try {
    await migrate(database);
    await ensureDemoOrganization(database);
  } finally {
    await database.close();
  }
}
const email = await createBenchUser(storage, 'metering-rounds');
const emails = graphEmails(graph);
let n = 0;
const nextPath = () => `/v2/identities/byEmail?email=${encodeURIComponent(emails[n++ % emails.length]!)}`;

log('building bench/dist (the server compiled as npm start compiles it)');
buildOperatorServer();
const servers = {
  on: await startOperatorServer('on', {
    ...storage,
    SEED_IDENTITIES: '0',
    BENCH_METERING: 'on',
    ...(values.writers ? { BENCH_WRITERS: values.writers } : {}),
  }),
  off: await startOperatorServer('off', { ...storage, SEED_IDENTITIES: '0', BENCH_METERING: 'off' }),
  on1: await startOperatorServer('on1', {
    ...storage,
    SEED_IDENTITIES: '0',
    BENCH_METERING: 'on',
    WEB_CONCURRENCY: '1',
  }),
  off1: await startOperatorServer('off1', {
    ...storage,
    SEED_IDENTITIES: '0',
    BENCH_METERING: 'off',
    WEB_CONCURRENCY: '1',
  }),
};
const { keyId, headers } = await benchKey(servers.on.base, email, 'metering-rounds');

async function load(server: OperatorServer, connections: number, seconds: number, overallRate?: number) {
  const result = await autocannon({
    url: server.base,
    connections,
    duration: seconds,
    headers,
    ...(overallRate ? { overallRate } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }) }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, ok: result['2xx'], bad: result.non2xx };
}

/** PostgreSQL's own simplest read (`pgbench -S`, the database `pgbench -i` made beside the bench's) at c clients. */
const pgbenchUrl = Object.assign(new URL(values.url!), { pathname: '/tessera_pgbench' });
{
  const client = new pg.Client({ connectionString: pgbenchUrl.href });
  const ready = await client
    .connect()
    .then(() => client.query(`select to_regclass('pgbench_accounts') is not null as ok`))
    .then((r) => r.rows[0].ok as boolean)
    .catch(() => false);
  await client.end().catch(() => {});
  if (!ready) throw new Error(`no pgbench database at ${pgbenchUrl.href}: run pgbench -i -s 10 tessera_pgbench first`);
}
function pgbench(connections: number, seconds: number): number {
  const out = execFileSync(
    'pgbench',
    ['-S', '-n', '-c', String(connections), '-j', '2', '-T', String(seconds), '-h', pgbenchUrl.hostname, '-p'].concat([
      pgbenchUrl.port || '5432',
      '-U',
      pgbenchUrl.username || 'postgres',
      'tessera_pgbench',
    ]),
    { encoding: 'utf8' },
  );
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(tps[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fixed = (x: number) => Number(x.toFixed(3));

let meteredOk = 0;
const seconds = Number(values.seconds);
const WARM_SECONDS = 5;
const results: Record<string, unknown>[] = [];
for (const connections of values.connections!.split(',').map(Number)) {
  for (const s of Object.values(servers)) await load(s, connections, WARM_SECONDS);
  const rounds: Record<string, number>[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const off = await load(servers.off, connections, seconds);
    const on = await load(servers.on, connections, seconds);
    const off1 = await load(servers.off1, connections, seconds);
    const on1 = await load(servers.on1, connections, seconds);
    meteredOk += on.ok + on1.ok;
    const round = {
      off: Math.round(off.rps),
      on: Math.round(on.rps),
      off1: Math.round(off1.rps),
      on1: Math.round(on1.rps),
      metering: fixed(on.rps / off.rps),
      scaleOutOn: fixed(on.rps / on1.rps),
      scaleOutOff: fixed(off.rps / off1.rps),
      scaleOutRatio: fixed(on.rps / on1.rps / (off.rps / off1.rps)),
      onP99: on.p99,
      load1: fixed(loadavg()[0]!),
    };
    rounds.push(round);
    log(`c=${connections} round ${r + 1}: ${JSON.stringify(round)}`);
  }
  const med = (k: string) => median(rounds.map((r) => r[k]!));
  results.push({
    connections,
    metering: med('metering'),
    scaleOutOn: med('scaleOutOn'),
    scaleOutOff: med('scaleOutOff'),
    scaleOutRatio: med('scaleOutRatio'),
    medianLoad1: med('load1'),
    rounds,
  });
}

// The full path against pgbench -S at 64 connections, with only the metered default server up (the four servers'
// pools and pgbench's 64 clients would pass PostgreSQL's default 100 connections): pgbench, on, pgbench, on, ...
await Promise.all([servers.off.stop(), servers.off1.stop(), servers.on1.stop()]);
const fullRounds: Record<string, number>[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const tps = pgbench(64, seconds);
  const on = await load(servers.on, 64, seconds);
  meteredOk += on.ok;
  fullRounds.push({
    pgbench: Math.round(tps),
    on: Math.round(on.rps),
    ratio: fixed(on.rps / tps),
    load1: fixed(loadavg()[0]!),
  });
  log(`full path round ${r + 1}: ${JSON.stringify(fullRounds.at(-1))}`);
}
const fullPath = {
  connections: 64,
  ratio: median(fullRounds.map((r) => r.ratio!)),
  medianLoad1: median(fullRounds.map((r) => r.load1!)),
  rounds: fullRounds,
};

// p99 at 80 % of the metered maximum at 16 connections: each round a maximum, then that rate held.
const latency: Record<string, number>[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const max = await load(servers.on, 16, seconds);
  const held = await load(servers.on, 16, seconds, Math.round(0.8 * max.rps));
  meteredOk += max.ok + held.ok;
  latency.push({ max: Math.round(max.rps), rate: Math.round(held.rps), p99: held.p99, load1: fixed(loadavg()[0]!) });
  log(`p99 round ${r + 1}: ${JSON.stringify(latency.at(-1))}`);
}
const p99At80 = { connections: 16, p99: median(latency.map((l) => l.p99!)), rounds: latency };

// Exactness: one usage row per 2xx of the metered server (warm-ups included: count them from the key alone).
await new Promise((resolve) => setTimeout(resolve, 1500));
const database = await openDatabase({ url: values.url! });
const [row] = await database.query<{ n: number }>('select count(*)::int as n from usage where key_id = $1', [keyId]);
await database.close();
await servers.on.stop();

const out = {
  at: new Date().toISOString(),
  identities: Number(values.identities),
  results,
  fullPath,
  p99At80,
  usageRowsForKey: row!.n,
  metered2xx: meteredOk,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `metering-rounds-${out.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify({ ...out, results: results.map(({ rounds: _r, ...rest }) => rest) }, null, 2));
log(`written ${file} (metered 2xx in rounds: ${meteredOk}; usage rows for the key: ${row!.n}, warm-ups included)`);
