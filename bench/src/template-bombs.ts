/**
 * npm run -w bench template-bombs -- [--engine pglite|postgres] [--identities N] [--seed S] [--url URL] [--copies N]
 *
 * Issue 12's hostile templates against the server as the API-path bench starts it (metering on): for each bomb,
 * `copies` calls at once while /healthz is polled every 50 ms. Reports each bomb's statuses and error, the slowest
 * /healthz answer during it, whether a normal template answers afterwards, and the resident memory of the server
 * with its sandbox processes: at rest, at its peak and after the bombs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import { createTemplate } from '@tessera/server/features/templates/repo';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { freePort, runChild } from '@tessera/server/test/process';
import { BENCH_PASSWORD, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';
import { serverRssMb } from './support/memory';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    identities: { type: 'string' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    copies: { type: 'string', default: '10' },
  },
});
const postgres = values.engine === 'postgres';
const identities = Number(values.identities ?? (postgres ? 1_000_000 : 100_000));
const copies = Number(values.copies);
const log = (line: string) => console.error(`[template-bombs] ${line}`);

const BOMBS = [
  { name: 'backtracking regex', expression: '{ "m": $match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/) }' },
  { name: '100 MB $pad', expression: '{ "x": $pad("", 100000000, "x") }' },
  { name: 'heap overflow', expression: '{ "n": $count([1..10000000]) }' },
  { name: 'function value (JSON)', expression: '{ "f": function($x) { $x } }' },
  { name: 'function value (CSV)', expression: '{ "f": function($x) { $x } }', query: '&format=csv' },
];

const { graph, storage, dataDir } = await prepareGraphDatabase({
  postgres,
  identities,
  seed: values.seed!,
  url: values.url!,
  log,
});
const templateIds: number[] = [];
let normal = 0;
{
  const database = await openDatabase(postgres ? { url: values.url! } : { dataDir });
  try {
    await migrate(database);
    const demo = await ensureDemoOrganization(database);
    const make = async (name: string, expression: string) =>
      (await createTemplate(database, { name, organizationId: demo.id, createdBy: null, expression, publish: true }))
        .id;
    for (const bomb of BOMBS) templateIds.push(await make(`bomb: ${bomb.name}`, bomb.expression));
    normal = await make('normal', '{ "id": id, "emails": emails.address }');
  } finally {
    await database.close();
  }
}
const email = await createBenchUser(storage, 'template-bombs');
const found = graphEmails(graph)[0]!;

const port = await freePort();
const child = runChild(['bench/src/api-server.ts'], {
  ...storage,
  PORT: String(port),
  HOST: '127.0.0.1',
  SEED_IDENTITIES: '0',
});
process.on('exit', () => child.proc.kill('SIGTERM'));
await child.waitFor('api-server listening', 120_000);
const base = `http://127.0.0.1:${port}`;
const cookie = await signInOverHttp(base, email, BENCH_PASSWORD);
const headers = { cookie, 'x-requested-with': 'XMLHttpRequest' };
const lookup = (template: number, query = '') =>
  fetch(`${base}/v2/identities/byEmail?email=${encodeURIComponent(found)}&template=${template}${query}`, { headers });

const restMb = serverRssMb(child);
let peakMb = restMb;
const sampler = setInterval(() => {
  peakMb = Math.max(peakMb, serverRssMb(child));
}, 250);

interface Outcome {
  bomb: string;
  statuses: Record<string, number>;
  error: string;
  seconds: number;
  healthzAnswered: number;
  healthzSlowestMs: number;
  healthzFailed: number;
  normalAfter: number;
}
const outcomes: Outcome[] = [];
for (const [i, bomb] of BOMBS.entries()) {
  log(bomb.name);
  const started = performance.now();
  let done = false;
  const health = { answered: 0, slowest: 0, failed: 0 };
  const polling = (async () => {
    while (!done) {
      const at = performance.now();
      const res = await fetch(`${base}/healthz`).catch(() => null);
      health.slowest = Math.max(health.slowest, performance.now() - at);
      if (res?.status === 200) health.answered++;
      else health.failed++;
      await res?.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const replies = await Promise.all(
    Array.from({ length: copies }, async () => {
      const res = await lookup(templateIds[i]!, bomb.query);
      return { status: res.status, body: await res.text() };
    }),
  );
  done = true;
  await polling;
  const statuses: Record<string, number> = {};
  for (const r of replies) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const failed = replies.find((r) => r.status !== 200);
  outcomes.push({
    bomb: bomb.name,
    statuses,
    error: failed ? String((JSON.parse(failed.body) as { error?: string }).error) : '',
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    healthzAnswered: health.answered,
    healthzSlowestMs: Math.round(health.slowest),
    healthzFailed: health.failed,
    normalAfter: (await lookup(normal)).status,
  });
}
clearInterval(sampler);
await new Promise((resolve) => setTimeout(resolve, 3000));
const afterMb = serverRssMb(child);
child.proc.kill('SIGTERM');
await child.exited;

const report = { at: new Date().toISOString(), engine: postgres ? 'PostgreSQL' : 'PGlite', copies, outcomes };
const memory = { restMb, peakMb, afterMb };
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = `template-bombs-${values.engine}-${report.at.replace(/[:.]/g, '-')}`;
writeFileSync(path.join(dir, `${stamp}.json`), `${JSON.stringify({ ...report, memory }, null, 2)}\n`);
const md = [
  `# Template bombs ${report.at}: ${report.engine}, ${copies} calls of each at once`,
  '',
  '| bomb | statuses | seconds | /healthz answered (slowest ms, failed) | normal template after | error |',
  '|---|---|---|---|---|---|',
  ...outcomes.map(
    (o) =>
      `| ${o.bomb} | ${Object.entries(o.statuses)
        .map(([s, n]) => `${n}× ${s}`)
        .join(
          ', ',
        )} | ${o.seconds} | ${o.healthzAnswered} (${o.healthzSlowestMs}, ${o.healthzFailed}) | ${o.normalAfter} | ${o.error} |`,
  ),
  '',
  `Resident memory of the server and its sandbox processes: ${restMb} MB at rest, ${peakMb} MB at the peak, ${afterMb} MB 3 s after the last bomb.`,
  '',
].join('\n');
writeFileSync(path.join(dir, `${stamp}.md`), md);
console.log(md);
