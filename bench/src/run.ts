/**
 * npm run bench: measures the running product against baselines taken in the same run on the same machine,
 * and writes bench/results/<time>.json plus a markdown summary. Load goes to loopback only and is bounded.
 *
 *   BENCH_SECONDS (default 5)  length of each load run
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@tessera/server/config';
import { freePort, runChild } from '@tessera/server/test/process';
import Fastify from 'fastify';
import { initialJs } from './bundle-size';
import { type LoadResult, load } from './load';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function baseline(): Promise<LoadResult> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await load('bare Fastify hello JSON (B)', `${url}/`, seconds);
  } finally {
    await app.close();
  }
}

async function product(): Promise<LoadResult[]> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tessera-bench-')),
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const server = runChild(['server/src/main.ts'], env);
  await server.waitFor('Tessera console:', 60_000);
  try {
    const base = `http://127.0.0.1:${port}`;
    return [
      await load('GET /v2/version (routing, session hook, schema)', `${base}/v2/version`, seconds),
      await load('GET /healthz (one database round trip)', `${base}/healthz`, seconds),
      await load('GET /login (console page)', `${base}/login`, seconds),
    ];
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
}

const b = await baseline();
const runs = await product();
const bundle = initialJs(path.join(REPO_ROOT, 'web/dist'), 'src/pages/login/login-page.tsx');
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const report = {
  at: new Date().toISOString(),
  seconds,
  engine,
  baseline: b,
  runs: runs.map((r) => ({ ...r, ratioToBaseline: Number((r.requestsPerSecond / b.requestsPerSecond).toFixed(3)) })),
  loginInitialJs: bundle,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = report.at.replace(/[:.]/g, '-');
writeFileSync(path.join(dir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
const rows = [b, ...report.runs].map(
  (r) =>
    `| ${r.name} | ${r.requestsPerSecond} | ${'ratioToBaseline' in r ? r.ratioToBaseline : 1} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx + r.errors} |`,
);
const md = [
  `# Bench ${report.at} (${engine}, ${seconds} s per run, 50 connections, load generator on the same machine)`,
  '',
  '| run | req/s | × B | p50 ms | p99 ms | non-2xx+errors |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
  `Initial JavaScript of /login: ${(bundle.gzipBytes / 1000).toFixed(1)} kB gzip (${(bundle.rawBytes / 1000).toFixed(1)} kB raw) in ${bundle.files.length} files.`,
  '',
].join('\n');
writeFileSync(path.join(dir, `${stamp}.md`), md);
console.log(md);
