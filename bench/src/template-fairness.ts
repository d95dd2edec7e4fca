/**
 * npx tsx bench/src/template-fairness.ts -- [--engine pglite|postgres] [--identities N] [--seed S] [--url URL]
 *   [--attackers 16] [--seconds 20] [--attacks slow,bomb] [--work 30000] [--label TEXT]
 *
 * Issue 28, finding 4: one organization's templated calls starving another's. Organization A (Demo) makes one
 * templated lookup at a time, first alone (its baseline), then while organization B keeps `attackers` templated calls
 * in flight for `seconds`: with a slow template (`$count([1..work][$ % 7 = 0])`, a few hundred ms a record) and with
 * a backtracking regex the sandbox kills. Reports A's latency (p50, p99, max), B's statuses and the load average:
 * the machine is shared, so compare runs made close together. `label` names what was measured (a version, a setting).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { ensureDemoOrganization } from '@tessera/server/features/contracts/demo';
import { createTemplate } from '@tessera/server/features/templates/repo';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { freePort, runChild, runCli } from '@tessera/server/test/process';
import { BENCH_PASSWORD, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    identities: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_fairness' },
    attackers: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '20' },
    attacks: { type: 'string', default: 'slow,bomb' },
    work: { type: 'string', default: '30000' },
    label: { type: 'string', default: '' },
  },
});
const postgres = values.engine === 'postgres';
const attackers = Number(values.attackers);
const seconds = Number(values.seconds);
const log = (line: string) => console.error(`[template-fairness] ${line}`);
const ORGANIZATION_B = 'Fairness B';

const ATTACKS: Record<string, string> = {
  slow: `{ "n": $count([1..${Number(values.work)}][$ % 7 = 0]) }`,
  bomb: '{ "m": $match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/) }',
};
const attacks = values.attacks!.split(',').filter((name) => name in ATTACKS);

const { graph, storage, dataDir } = await prepareGraphDatabase({
  postgres,
  identities: Number(values.identities),
  seed: values.seed!,
  url: values.url!,
  log,
});

/** B: an organization of its own with a contract in force and no rate limit, as a paying customer has. */
async function ensureOrganizationB(database: Awaited<ReturnType<typeof openDatabase>>): Promise<number> {
  const [found] = await database.query<{ id: number }>(
    'select id from organizations where name = $1 and deleted_at is null limit 1',
    [ORGANIZATION_B],
  );
  if (found) return found.id;
  const [org] = await database.query<{ id: number }>('insert into organizations (name) values ($1) returning id', [
    ORGANIZATION_B,
  ]);
  await database.query(
    `insert into contracts (organization_id, name, starts_at, ends_at, price_per_request, price_per_identity)
     values ($1, 'Fairness contract', now() - interval '1 day', now() + interval '1 year', 0.001, 0.01)`,
    [org!.id],
  );
  return org!.id;
}

const templates = { a: 0, b: {} as Record<string, number> };
{
  const database = await openDatabase(postgres ? { url: values.url! } : { dataDir });
  try {
    await migrate(database);
    const demo = await ensureDemoOrganization(database);
    const b = await ensureOrganizationB(database);
    const make = async (name: string, organizationId: number, expression: string) =>
      (await createTemplate(database, { name, organizationId, createdBy: null, expression, publish: true })).id;
    templates.a = await make('fairness: A', demo.id, '{ "id": id, "emails": emails.address }');
    for (const name of attacks) templates.b[name] = await make(`fairness: B ${name}`, b, ATTACKS[name]!);
  } finally {
    await database.close();
  }
}
const emailA = await createBenchUser(storage, 'fairness-a');
const emailB = `fairness-b-${Date.now()}@tessera.test`;
const created = await runCli(
  ['user', 'create', '--email', emailB, '--role', 'user', '--organization', ORGANIZATION_B],
  {
    ...storage,
    TESSERA_PASSWORD: BENCH_PASSWORD,
  },
);
if (created.code !== 0) throw new Error(`user create failed:\n${created.output}`);
const found = graphEmails(graph);

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
const session = async (email: string) => ({
  cookie: await signInOverHttp(base, email, BENCH_PASSWORD),
  'x-requested-with': 'XMLHttpRequest',
});
const headersA = await session(emailA);
const headersB = await session(emailB);

let next = 0;
/** One templated lookup by e-mail (a different person each time): its status, milliseconds and Retry-After. */
async function lookup(headers: Record<string, string>, template: number) {
  const email = found[next++ % found.length]!;
  const started = performance.now();
  const res = await fetch(`${base}/v2/identities/byEmail?email=${encodeURIComponent(email)}&template=${template}`, {
    headers,
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after') };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((x, y) => x - y);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
};

/** A's calls, one at a time with a short pause between, until `until` (or `count` calls). */
async function sampleA(until: number, count = Number.POSITIVE_INFINITY) {
  const ms: number[] = [];
  const statuses: Record<string, number> = {};
  while (performance.now() < until && ms.length < count) {
    const r = await lookup(headersA, templates.a);
    ms.push(r.ms);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    await pause(100);
  }
  return { ...summary(ms), statuses };
}

// Warm: the sandbox starts its processes on first use.
for (let i = 0; i < 5; i++) await lookup(headersA, templates.a);
const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
const baseline = await sampleA(Number.POSITIVE_INFINITY, 40);
log(`A alone: p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`);

interface Phase {
  attack: string;
  a: Awaited<ReturnType<typeof sampleA>>;
  b: { calls: number; statuses: Record<string, number>; retryAfter: string[]; p50: number };
  load: number[];
}
const phases: Phase[] = [];
for (const attack of attacks) {
  const bSolo = await lookup(headersB, templates.b[attack]!);
  log(`${attack}: one call of B alone took ${Math.round(bSolo.ms)} ms (${bSolo.status})`);
  const until = performance.now() + seconds * 1000;
  const bMs: number[] = [];
  const bStatuses: Record<string, number> = {};
  const retryAfter = new Set<string>();
  const flood = Array.from({ length: attackers }, async () => {
    while (performance.now() < until) {
      const r = await lookup(headersB, templates.b[attack]!);
      bMs.push(r.ms);
      bStatuses[r.status] = (bStatuses[r.status] ?? 0) + 1;
      if (r.retryAfter) retryAfter.add(r.retryAfter);
      // A refused call waits as it is told, as a polite client would.
      if (r.retryAfter) await pause(Math.min(1000, Number(r.retryAfter) * 1000));
    }
  });
  await pause(1000); // B's calls fill the queue first
  const a = await sampleA(until);
  await Promise.all(flood);
  const load = loadavg().map((n) => Number(n.toFixed(2)));
  phases.push({
    attack,
    a,
    b: { calls: bMs.length, statuses: bStatuses, retryAfter: [...retryAfter], p50: summary(bMs).p50 },
    load,
  });
  log(`${attack}: A p50 ${a.p50} ms, p99 ${a.p99} ms, max ${a.max} ms (${a.n} calls); B ${JSON.stringify(bStatuses)}`);
  await pause(3000);
}
child.proc.kill('SIGTERM');
await child.exited;

const report = {
  at: new Date().toISOString(),
  label: values.label,
  engine: postgres ? 'PostgreSQL' : 'PGlite',
  cores: availableParallelism(),
  attackers,
  seconds,
  baseline,
  loadBefore,
  phases,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = `template-fairness-${values.engine}-${report.at.replace(/[:.]/g, '-')}`;
writeFileSync(path.join(dir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ');
const md = [
  `# Template fairness ${report.at}${report.label ? ` (${report.label})` : ''}: ${report.engine}, ${report.cores} cores, B keeps ${attackers} calls in flight for ${seconds} s`,
  '',
  `A alone: p50 ${baseline.p50} ms, p99 ${baseline.p99} ms, max ${baseline.max} ms (${baseline.n} calls); load average before ${loadBefore.join(' ')}.`,
  '',
  "| B's template | A p50 ms | A p99 ms | A max ms | A calls (statuses) | B calls (statuses) | B p50 ms | B Retry-After seen | load average after |",
  '|---|---|---|---|---|---|---|---|---|',
  ...phases.map(
    (p) =>
      `| ${p.attack} | ${p.a.p50} | ${p.a.p99} | ${p.a.max} | ${p.a.n} (${statuses(p.a.statuses)}) | ${p.b.calls} (${statuses(p.b.statuses)}) | ${p.b.p50} | ${p.b.retryAfter.join(', ') || '-'} | ${p.load.join(' ')} |`,
  ),
  '',
].join('\n');
writeFileSync(path.join(dir, `${stamp}.md`), md);
console.log(md);
