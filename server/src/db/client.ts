/**
 * One database handle for the process: embedded PGlite in DATA_DIR, or PostgreSQL when DATABASE_URL is set.
 * Both are driven through drizzle's PostgreSQL dialect, so repos do not know which engine they talk to.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { inSpan, statementVerb, tracing } from '../observability/tracing';
import { lockDataDir } from './data-dir-lock';
import { pooledTransaction } from './pooled-transaction';
import { applyRoleSettings, connectionSettings } from './role-settings';
import * as schema from './schema';
import type { DatabaseTimeouts } from './timeouts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a repo receives: the database, or the transaction it runs inside. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: everything or nothing. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * One statement straight to the engine, without the ORM: the lookup path, where every microsecond shows.
   * `prepare` keeps the statement planned on each PostgreSQL connection (named by a hash of its text); in pool mode
   * `transaction` it is ignored, as PgBouncer cannot carry named statements there (decision 0042).
   * PostgreSQL connections use generic plans (decision 0017); `customPlan` plans this call for its values, in a
   * transaction of its own, for a statement whose best plan depends on them.
   */
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** The raw client, for the migrator and bulk loaders. */
  raw: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; pool: pg.Pool; url: string };
}

export interface QueryOptions {
  prepare?: boolean;
  customPlan?: boolean;
  /** Which time budget the statement has (DatabaseTimeouts); everything else has the default one. */
  budget?: 'lookup' | 'usage';
  /**
   * Resolves the statement's table names in this schema first (the sandbox graph, issue 31): in a transaction of its
   * own with `set local search_path`, so behind PgBouncer in transaction mode no other statement ever sees it.
   */
  searchPath?: string;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string | null;
  /** PGlite data folder; null keeps the database in memory (tests). */
  dataDir?: string | null;
  poolSize?: number;
  /** Time limits on PostgreSQL (none when absent: the CLI's bulk loads and statistics may run long). */
  timeouts?: DatabaseTimeouts | null;
  /**
   * How the connections reach PostgreSQL (DATABASE_POOL_MODE): `session` (default: directly, or through a pooler in
   * session mode) sends the settings as start-up parameters and names prepared statements; `transaction` (PgBouncer
   * in transaction mode, decision 0042) sends neither and makes the settings the role's defaults in the database.
   */
  poolMode?: PoolMode;
  /** Told what an operator should know at start (pool mode `transaction`: role defaults changed). */
  report?: (line: string) => void;
}

export type PoolMode = 'session' | 'transaction';

const statementNames = new Map<string, string>();
/** A stable name for a prepared statement: the same text always gets the same name, other texts never do. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A schema name as `search_path` takes it: only lowercase letters, digits and `_`, so it is never quoted text. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

function searchPathSql(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`not a schema name: ${schema}`);
  return `set local search_path = ${schema}, public`;
}

/** One statement in a transaction of its own, with `settings` (`set local ...;` statements) in force for it alone. */
async function inOwnTransaction<T>(pool: pg.Pool, settings: string, config: pg.QueryConfig): Promise<T[]> {
  const client = await pool.connect();
  let broken = false;
  // A checked-out client has no pool listener: a lost connection must fail this call, not the process.
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query(`begin; ${settings}`);
    const result = await client.query(config);
    await client.query('commit');
    return result.rows as T[];
  } catch (err) {
    await client.query('rollback').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

function wrap(
  db: Db,
  engine: Database['engine'],
  raw: Database['raw'],
  close: () => Promise<void>,
  timeouts?: DatabaseTimeouts | null,
  /** False behind PgBouncer in transaction mode: a statement named on one server connection is unknown on the next. */
  namedStatements = true,
): Database {
  const budgets = { lookup: timeouts?.lookupMs, usage: timeouts?.usageMs };
  const query = <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]> =>
    tracing()
      ? inSpan(`db ${statementVerb(text)}`, spanAttributes(raw, text), () => run<T>(text, params, options))
      : run<T>(text, params, options);
  return {
    db,
    engine,
    raw,
    close,
    transaction: (fn) => (raw.kind === 'postgres' ? pooledTransaction(raw.pool, fn) : db.transaction(fn)),
    query,
    async ping() {
      await query('select 1');
    },
  };

  async function run<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
    const schema = options?.searchPath;
    if (raw.kind === 'pglite') {
      if (!schema) return (await raw.client.query<T>(text, params)).rows as T[];
      const set = searchPathSql(schema);
      return raw.client.transaction(async (tx) => {
        await tx.query(set);
        return (await tx.query<T>(text, params)).rows as T[];
      });
    }
    const config: pg.QueryConfig & { query_timeout?: number } =
      // A statement named on a connection is planned for the search_path it was prepared under: not for a schema.
      options?.prepare && namedStatements && !schema
        ? { name: statementName(text), text, values: params }
        : { text, values: params };
    const budget = options?.budget && budgets[options.budget];
    if (budget) config.query_timeout = budget;
    const settings = [
      ...(options?.customPlan ? ['set local plan_cache_mode = force_custom_plan'] : []),
      ...(schema ? [searchPathSql(schema)] : []),
    ];
    if (settings.length === 0) return (await raw.pool.query(config)).rows as T[];
    return inOwnTransaction<T>(raw.pool, settings.join('; '), config);
  }
}

/** What a statement's span says: the engine and the verb, never the text (the query console's is a customer's). */
const spanAttributes = (raw: Database['raw'], text: string) => ({
  'db.system.name': raw.kind === 'postgres' ? 'postgresql' : 'pglite',
  'db.operation.name': statementVerb(text),
});

/** Connections a server process holds at most on PostgreSQL. */
export const POOL_SIZE = 10;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // Generic plans (decision 0017): the lookup's statements take longer to plan than to run, and PostgreSQL's own
    // choice kept planning them afresh on every call.
    const t = options.timeouts;
    const settings = connectionSettings(t);
    const session = options.poolMode !== 'transaction';
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? POOL_SIZE,
      keepAlive: true,
      ...(t && {
        connectionTimeoutMillis: t.connectMs,
        idleTimeoutMillis: t.idleMs,
        // The client's own limit, for a server that does not answer at all (its statement_timeout cannot fire then).
        query_timeout: t.statementMs + 1000,
      }),
      // Set in the connection's start-up packet: in force before its first statement, with no query of its own
      // (a query sent from the pool's connect event raced the first one: pg deprecates that and 9.0 refuses it).
      // PgBouncer refuses these parameters, so in transaction mode they are the role's defaults instead.
      ...(session && {
        options: `-c plan_cache_mode=${settings.plan_cache_mode}`,
        statement_timeout: settings.statement_timeout,
        idle_in_transaction_session_timeout: settings.idle_in_transaction_session_timeout,
      }),
    });
    // An idle client's error (e.g. the server restarting) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    // A checked-out client has no pool listener (drizzle's transactions hold one between statements): its lost
    // connection must fail its statements, not the process. The pool drops such a client on release. Behind PgBouncer
    // a crashed server connection ends its client's connection with it ("server conn crashed?").
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const raw = { kind: 'postgres' as const, pool, url: options.url };
    const database = wrap(db, 'postgres', raw, () => pool.end(), t, session);
    try {
      if (session) await database.ping();
      else await applyRoleSettings(pool, settings, options.report);
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return database;
  }
  let dataDir: string | undefined;
  let unlock = () => {};
  if (options.dataDir) {
    // PGlite does not create parent folders.
    dataDir = path.join(options.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, { extensions: { pg_trgm, fuzzystrmatch } });
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return wrap(db, 'pglite', { kind: 'pglite', client }, async () => {
    await client.close();
    unlock();
  });
}
