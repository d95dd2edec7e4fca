/**
 * npm run -w bench metering-rounds -- [--url URL] [--identities N] [--rounds R] [--seconds S] [--connections 16,64]
 *
 * Issue 27's headline ratio, measured as the house asks: metering on ÷ metering off for GET byEmail with an API key,
 * on PostgreSQL, in interleaved rounds (off, on, off, on, ...), each ratio taken within its round, reported as the
 * median of the per-round ratios with the load average beside it. Both servers are the same build (bench/src/
 * api-server.ts, BENCH_METERING on|off), up together, loaded in turn; inputs are drawn in turn from the e-mails of the
 * imported people. The database name comes from --url, so two runs on one PostgreSQL need not collide. Also checks
 * that the metered server wrote exactly one usage row per 2xx it answered in the rounds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { type Child, freePort, runChild } from '@tessera/server/test/process';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    identities: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16,64' },
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

async function startServer(metering: 'on' | 'off'): Promise<{ child: Child; base: string }> {
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

const on = await startServer('on');
const off = await startServer('off');
const cookie = await signInOverHttp(on.base, email, BENCH_PASSWORD);
const made = await fetch(`${on.base}/v2/keys`, {
  method: 'POST',
  headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', cookie },
  body: JSON.stringify({ name: `metering-rounds ${Date.now()}` }),
});
const key = Object.values(((await made.json()) as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
const headers = { authorization: `Bearer ${key.id}${key.secret}` };

async function load(base: string, connections: number, seconds: number) {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }) }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, ok: result['2xx'], bad: result.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

let meteredOk = 0;
const results: Record<string, unknown>[] = [];
for (const connections of values.connections!.split(',').map(Number)) {
  await load(on.base, connections, 2);
  await load(off.base, connections, 2);
  const rounds: { off: number; on: number; ratio: number; onP99: number; load1: number }[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const a = await load(off.base, connections, Number(values.seconds));
    const b = await load(on.base, connections, Number(values.seconds));
    meteredOk += b.ok;
    const round = { off: a.rps, on: b.rps, ratio: b.rps / a.rps, onP99: b.p99, load1: loadavg()[0]! };
    rounds.push(round);
    log(
      `c=${connections} round ${r + 1}: off ${a.rps.toFixed(0)} on ${b.rps.toFixed(0)} ratio ${round.ratio.toFixed(3)} load ${round.load1.toFixed(2)}`,
    );
  }
  results.push({
    connections,
    medianRatio: median(rounds.map((r) => r.ratio)),
    medianLoad1: median(rounds.map((r) => r.load1)),
    rounds,
  });
}
// Exactness: one usage row per 2xx of the metered server (warm-ups included: count them from the key alone).
await new Promise((resolve) => setTimeout(resolve, 1500));
const database = await openDatabase({ url: values.url! });
const [row] = await database.query<{ n: number }>('select count(*)::int as n from usage where key_id = $1', [key.id]);
await database.close();
on.child.proc.kill('SIGTERM');
off.child.proc.kill('SIGTERM');
await Promise.all([on.child.exited, off.child.exited]);

const out = { at: new Date().toISOString(), identities: Number(values.identities), results, usageRowsForKey: row!.n };
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `metering-rounds-${out.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify({ ...out, results: results.map(({ rounds: _r, ...rest }) => rest) }, null, 2));
log(`written ${file} (metered 2xx in rounds: ${meteredOk}; usage rows for the key: ${row!.n}, warm-ups included)`);
