/**
 * npm run -w bench start-cost -- [--engine pglite|postgres|both] [--runs N] [--url URL] [--settle S]
 *
 * What the compiled server (decision 0024) saves: for each way of running the server, on PGlite and on PostgreSQL,
 * the time from spawning node to the ready line ("Tessera console: ...") and the resident memory at rest, both of
 * the server process alone and with its template-sandbox children. The ways:
 *   tsx       node --import tsx server/src/main.ts   (what `npm start` ran before: TypeScript through a loader)
 *   compiled  node server/dist/main.js               (the bundle `npm run build` makes)
 *   npm start node scripts/start.mjs                 (the bundle, after start's staleness checks of both builds)
 * Each database is prepared once by a first start (migrations; PGlite seeds its default 10,000 people), so the
 * starts measured are restarts on a migrated database. Runs alternate between the ways, so a noisy neighbour
 * costs each alike; medians are reported. "At rest" is after sign-in, /v2/openapi.json and a template preview
 * (which starts the sandbox children), then `--settle` seconds idle.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { freePort } from '@tessera/server/test/process';
import { ensurePostgresDatabase } from './support/graph-database';
import { serverRssMb } from './support/memory';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '5' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench_build' },
    settle: { type: 'string', default: '5' },
  },
});
const runs = Number(values.runs);
const settleMs = Number(values.settle) * 1000;
const engines = values.engine === 'both' ? ['pglite', 'postgres'] : [values.engine!];
const log = (line: string) => console.error(`[start-cost] ${line}`);
const READY = 'Tessera console:';
const EMAIL = 'bench-root@tessera.test';
const PASSWORD = 'Bench-passw0rd!';

const WAYS = {
  tsx: [process.execPath, '--import', 'tsx', 'server/src/main.ts'],
  compiled: [process.execPath, 'server/dist/main.js'],
} as const;
type Way = keyof typeof WAYS;

interface Sample {
  readyMs: number;
  /** CPU time (user + system, all threads) the server had used when it was ready: less swayed by a busy machine. */
  cpuReadyMs: number;
  /** Right after the ready line. */
  rssReadyMb: number;
  /** The server process at rest, and with its sandbox children. */
  rssRestMb: number;
  rssRestTreeMb: number;
}

log('building the console if needed, and the server, as npm run build would');
for (const script of ['scripts/build-if-needed.mjs', 'scripts/build-server.mjs']) {
  const built = spawnSync(process.execPath, [script], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** What scripts/start.mjs does before it imports the bundle, when both builds are fresh: the staleness checks. */
function checksMs(): number {
  const code = [
    'const began = performance.now();',
    "const { consoleIsStale } = await import('./scripts/build-if-needed.mjs');",
    "const { serverIsStale } = await import('./scripts/build-server.mjs');",
    'consoleIsStale();',
    'serverIsStale();',
    'console.log(performance.now() - began);',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO_ROOT, encoding: 'utf8' });
  return Number(run.stdout.trim());
}
const checks = median(Array.from({ length: 5 }, checksMs));
log(`npm start's staleness checks: ${checks.toFixed(0)} ms`);

/** User + system CPU time of a process and its ended children, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
};

const ownRssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

function startServer(way: Way, env: Record<string, string>) {
  const [node, ...args] = WAYS[way];
  const began = process.hrtime.bigint();
  const proc: ChildProcess = spawn(node, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${way}: never ready:\n${out}`)), 120_000);
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(READY)) {
        clearTimeout(timer);
        resolve(Number(process.hrtime.bigint() - began) / 1e6);
      }
    };
    proc.stdout!.on('data', collect);
    proc.stderr!.on('data', collect);
    void exited.then((code) => reject(new Error(`${way}: exited (${code}) before it was ready:\n${out}`)));
  });
  const stop = async () => {
    proc.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`${way}: exited ${code} on SIGTERM:\n${out}`);
  };
  return { proc, ready, stop };
}

async function exercise(base: string): Promise<void> {
  const spec = await fetch(`${base}/v2/openapi.json`);
  if (spec.status !== 200) throw new Error(`/v2/openapi.json answered ${spec.status}`);
  await spec.arrayBuffer();
  const cookie = await signInOverHttp(base, EMAIL, PASSWORD);
  for (let i = 0; i < 3; i++) {
    const preview = await fetch(`${base}/v2/templates/preview`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', cookie },
      body: JSON.stringify({ expression: `{"name": firstName & " " & lastName, "n": ${i}}` }),
    });
    if (preview.status !== 200) throw new Error(`template preview answered ${preview.status}: ${await preview.text()}`);
    await preview.arrayBuffer();
  }
}

async function measure(way: Way, env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const server = startServer(way, { ...env, PORT: String(port) });
  try {
    const readyMs = await server.ready;
    const cpuReadyMs = cpuMs(server.proc.pid!);
    const rssReadyMb = ownRssMb(server.proc.pid!);
    await exercise(`http://127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, settleMs));
    return {
      readyMs,
      cpuReadyMs,
      rssReadyMb,
      rssRestMb: ownRssMb(server.proc.pid!),
      rssRestTreeMb: serverRssMb(server),
    };
  } finally {
    await server.stop();
  }
}

const results: Record<string, Record<Way, Sample[]>> = {};
for (const engine of engines) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-start-cost-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, ROOT_EMAIL: EMAIL, ROOT_PASSWORD: PASSWORD };
  if (engine === 'postgres') {
    await ensurePostgresDatabase(values.url!, true);
    env.DATABASE_URL = values.url!;
  }
  log(`${engine}: preparing the database (first start: migrations${engine === 'pglite' ? ', seeding' : ''})`);
  await measure('compiled', env);
  const samples = { tsx: [], compiled: [] } as Record<Way, Sample[]>;
  for (let run = 0; run < runs; run++) {
    for (const way of Object.keys(WAYS) as Way[]) {
      const sample = await measure(way, env);
      samples[way].push(sample);
      log(
        `${engine} ${way} #${run + 1}: ready in ${sample.readyMs.toFixed(0)} ms (${sample.cpuReadyMs} ms CPU), ` +
          `${sample.rssRestMb} MB at rest (${sample.rssRestTreeMb} MB with sandbox children)`,
      );
    }
  }
  results[engine] = samples;
  rmSync(dataDir, { recursive: true, force: true });
}

const stamp = new Date().toISOString();
const rows: string[] = [];
for (const [engine, samples] of Object.entries(results)) {
  for (const [way, list] of Object.entries(samples) as [Way, Sample[]][]) {
    const pick = (k: keyof Sample) => median(list.map((s) => s[k]));
    rows.push(
      `| ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${way} | ${pick('readyMs').toFixed(0)} ` +
        `(${Math.min(...list.map((s) => s.readyMs)).toFixed(0)}–${Math.max(...list.map((s) => s.readyMs)).toFixed(0)}) | ` +
        `${pick('cpuReadyMs')} | ${pick('rssReadyMb')} | ${pick('rssRestMb')} | ${pick('rssRestTreeMb')} |`,
    );
  }
}
const md = [
  `# Start cost ${stamp}: ${runs} restarts of each way, medians, on a migrated database`,
  '',
  `Node ${process.version}. Ready: spawn to the "${READY}" line (wall time; and the server's CPU time, which a`,
  `busy machine sways less). At rest: after sign-in, /v2/openapi.json and 3 template previews, then`,
  `${settleMs / 1000} s idle. Tree: with the template-sandbox child processes.`,
  '',
  `\`npm start\` = compiled + ${checks.toFixed(0)} ms of staleness checks of both builds (scripts/start.mjs, median of 5).`,
  '',
  '| engine | way | ready ms (min–max) | CPU ms to ready | RSS at ready MB | RSS at rest MB | RSS at rest, tree MB |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '',
].join('\n');
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = `start-cost-${stamp.replace(/[:.]/g, '-')}`;
writeFileSync(
  path.join(dir, `${file}.json`),
  `${JSON.stringify({ stamp, node: process.version, runs, settleMs, checksMs: checks, results }, null, 2)}\n`,
);
writeFileSync(path.join(dir, `${file}.md`), md);
console.log(md);
