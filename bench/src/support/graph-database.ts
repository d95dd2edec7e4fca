/**
 * A generated graph loaded into a database for the benches, made once and kept between runs (same size and seed):
 * the graph in the temp folder, an embedded database beside it or the PostgreSQL database at `url`. On a fresh
 * PostgreSQL load, `pgbench -i` runs on the same server for comparison.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@tessera/server/db/client';
import { generateGraph } from '@tessera/server/features/people/generate/graph';
import { runCli } from '@tessera/server/test/process';
import pg from 'pg';

export interface Prepared {
  graph: string;
  dataDir: string;
  storage: Record<string, string>;
  importRate: { identities: number; seconds: number; perSecond: number } | null;
  pgbenchInit: { scale: number; rows: number; seconds: number } | null;
}

export async function ensurePostgresDatabase(url: string, fresh: boolean): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).href });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists "${name}"`);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
}

export async function prepareGraphDatabase(options: {
  postgres: boolean;
  identities: number;
  seed: string;
  url: string;
  log: (line: string) => void;
}): Promise<Prepared> {
  const { postgres, identities, log } = options;
  const values = { seed: options.seed, url: options.url };
  // 1. The graph.
  const graph = path.join(tmpdir(), `tessera-bench-graph-${identities}-${values.seed}`);
  if (!existsSync(path.join(graph, 'manifest.json'))) {
    log(`generating ${identities} people into ${graph}`);
    await generateGraph({ identities, seed: values.seed, out: graph });
  }

  // 2. The database, loaded once.
  const dataDir = path.join(tmpdir(), `tessera-bench-pglite-${identities}-${values.seed}`);
  const storage: Record<string, string> = postgres
    ? { DATABASE_URL: values.url, DATA_DIR: dataDir }
    : { DATA_DIR: dataDir };

  async function loadedPeople(): Promise<number> {
    try {
      if (postgres) await ensurePostgresDatabase(values.url, false);
      else if (!existsSync(dataDir)) return 0;
      const database = await openDatabase(postgres ? { url: values.url } : { dataDir });
      try {
        const [row] = await database.query<{ n: number }>('select count(*)::int as n from people');
        return row?.n ?? 0;
      } finally {
        await database.close();
      }
    } catch {
      return 0;
    }
  }

  let importRate: { identities: number; seconds: number; perSecond: number } | null = null;
  if ((await loadedPeople()) !== identities) {
    if (postgres) await ensurePostgresDatabase(values.url, true);
    else rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    log('migrating');
    await runCli(['migrate'], storage);
    log(`importing ${identities} people`);
    const started = performance.now();
    const result = await runCli(['import', path.join(graph, 'people.jsonl')], storage);
    if (result.code !== 0) throw new Error(`import failed:\n${result.output}`);
    const took = (performance.now() - started) / 1000;
    importRate = { identities, seconds: Number(took.toFixed(1)), perSecond: Math.round(identities / took) };
    log(`imported in ${took.toFixed(1)} s`);
  }

  let pgbenchInit: { scale: number; rows: number; seconds: number } | null = null;
  if (postgres && importRate) {
    const url = new URL(values.url);
    await ensurePostgresDatabase(Object.assign(new URL(url), { pathname: '/tessera_pgbench' }).href, true);
    const started = performance.now();
    execFileSync(
      'pgbench',
      [
        '-i',
        '-q',
        '-s',
        '10',
        '-h',
        url.hostname,
        '-p',
        url.port || '5432',
        '-U',
        url.username || 'postgres',
        'tessera_pgbench',
      ],
      {
        stdio: 'ignore',
      },
    );
    pgbenchInit = { scale: 10, rows: 1_000_000, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
  }

  return { graph, dataDir, storage, importRate, pgbenchInit };
}
