/**
 * npm run -w bench job-rounds -- [--url URL] [--identities N] [--rows R] [--rounds K] [--pglite]
 *
 * Issue 33 item 3: rows a second of a bulk job (POST /v2/jobs, run in the background, until it reports `completed`)
 * against the streamed PUT (PUT /v2/identities/byEmail, until its last byte) on the same CSV of R rows (100,000 by
 * default: the graph's e-mails that find someone, in turn, every 10th row an address nobody has), with the same API
 * key, on the server as `npm start` runs it (bench/dist, a worker per core; bench/src/support/operator.ts), on
 * PostgreSQL (or PGlite with --pglite). Rounds interleave (PUT, job, PUT, job, ...); reported: each round's rates and
 * job ÷ PUT, the median of those ratios, the load average beside each, and the server's peak resident memory during each
 * PUT and job, sampled while they run (it must not grow with the rows: constant memory).
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
import { benchKey, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';
import { buildOperatorServer, startOperatorServer } from './support/operator';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_jobs' },
    identities: { type: 'string', default: '20000' },
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    pglite: { type: 'boolean', default: false },
  },
});
const log = (line: string) => console.error(`[job-rounds] ${line}`);
const rows = Number(values.rows);
const postgres = !values.pglite;
const { graph, storage } = await prepareGraphDatabase({
  postgres,
  identities: Number(values.identities),
  seed: '1',
  url: values.url!,
  log,
});
{
  const database = await openDatabase(postgres ? { url: values.url! } : { dataDir: storage.DATA_DIR! });
  try {
    await migrate(database);
    await ensureDemoOrganization(database);
  } finally {
    await database.close();
  }
}
const email = await createBenchUser(storage, 'job-rounds');
const emails = graphEmails(graph);
const lines = ['email'];
for (let i = 0; i < rows; i++) lines.push(i % 10 === 9 ? `nobody-${i}@jobs.example` : emails[i % emails.length]!);
const csv = `${lines.join('\n')}\n`;
log(`${rows} rows, ${(csv.length / 1e6).toFixed(1)} MB`);

buildOperatorServer();
const server = await startOperatorServer('job-rounds', { ...storage, SEED_IDENTITIES: '0' });
const { headers } = await benchKey(server.base, email, 'job-rounds');

/** The highest resident memory of the server seen while `run` runs (sampled every 250 ms), MB. */
async function peakRss<T>(run: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peakMb = serverRss();
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, serverRss());
  }, 250);
  try {
    return { value: await run(), peakMb };
  } finally {
    clearInterval(timer);
  }
}

/** The streamed PUT: seconds until its last byte. */
async function put(body = csv): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.base}/v2/identities/byEmail`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'text/csv' },
    body,
  });
  if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  // Read to its end and dropped: a million rows' reply is larger than a string can be.
  for await (const _ of res.body!);
  return (performance.now() - started) / 1000;
}

/** A job: seconds from its POST until it reports completed (polled every 100 ms). */
async function job(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.base}/v2/jobs?endpoint=byEmail`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/csv' },
    body: csv,
  });
  const made = (await res.json()) as { job: { id: string } };
  if (res.status !== 202) throw new Error(`POST /v2/jobs answered ${res.status}: ${JSON.stringify(made)}`);
  for (;;) {
    const read = await fetch(`${server.base}/v2/jobs/${made.job.id}`, { headers });
    const { job: state } = (await read.json()) as { job: { status: string; rows: { done: number } } };
    if (state.status === 'completed') break;
    if (!['queued', 'running'].includes(state.status)) throw new Error(`job ended ${state.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - started) / 1000;
}

/** Resident memory of the server's processes (the primary and its workers), MB. */
function serverRss(): number {
  const out = execFileSync('ps', ['-eo', 'rss,args'], { encoding: 'utf8' });
  return Math.round(
    out
      .split('\n')
      .filter((l) => l.includes('start-operator-server.mjs'))
      .reduce((kb, l) => kb + Number(l.trim().split(/\s+/)[0]), 0) / 1024,
  );
}

await put(`${lines.slice(0, 10_001).join('\n')}\n`); // warm-up: JIT and caches
const idleRssMb = serverRss();
log(`server resident memory before the rounds: ${idleRssMb} MB`);
const rounds: { put: number; job: number; ratio: number; load1: number; putPeakMb: number; jobPeakMb: number }[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const putRun = await peakRss(put);
  const jobRun = await peakRss(job);
  const putRate = rows / putRun.value;
  const jobRate = rows / jobRun.value;
  const round = {
    put: Math.round(putRate),
    job: Math.round(jobRate),
    ratio: Number((jobRate / putRate).toFixed(3)),
    load1: Number(loadavg()[0]!.toFixed(2)),
    putPeakMb: putRun.peakMb,
    jobPeakMb: jobRun.peakMb,
  };
  rounds.push(round);
  log(`round ${r + 1}: ${JSON.stringify(round)}`);
}
await server.stop();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  at: new Date().toISOString(),
  engine: postgres ? 'postgres' : 'pglite',
  rows,
  identities: Number(values.identities),
  ratio: median(rounds.map((r) => r.ratio)),
  medianPutRowsPerSecond: median(rounds.map((r) => r.put)),
  medianJobRowsPerSecond: median(rounds.map((r) => r.job)),
  medianLoad1: median(rounds.map((r) => r.load1)),
  idleRssMb,
  rounds,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `job-rounds-${result.engine}-${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
log(`job ÷ PUT ${result.ratio} (median of ${rounds.length} rounds, load ${result.medianLoad1}); written ${file}`);
