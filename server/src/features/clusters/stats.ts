/**
 * What the Clusters page shows of one node, read from PostgreSQL's catalog and statistics views. The same
 * statements run on both engines; the embedded one (PGlite) has no replicas and no other sessions, and says so.
 */
import {
  CLUSTER_CONNECT_TIMEOUT_MS,
  CLUSTER_TABLES,
  type ClusterNode,
  type ClusterQuery,
  type ClusterTable,
} from '@tessera/common/clusters';
import { type ClusterTarget, connectCluster, unreachableReason } from '../../db/clusters';

type Run = <T>(text: string) => Promise<T[]>;

const OVERVIEW = `select current_setting('server_version') as version,
  pg_is_in_recovery() as replica,
  pg_database_size(current_database())::float8 as bytes,
  case when not pg_is_in_recovery() then null
       when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
       else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0) end::float8 as lag`;

const TABLES = `select n.nspname || '.' || c.relname as name,
  pg_total_relation_size(c.oid)::float8 as bytes,
  case when c.reltuples < 0 then null else c.reltuples end::float8 as rows
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'm') and n.nspname not in ('pg_catalog', 'information_schema')
    and n.nspname not like 'pg_toast%'
  order by 2 desc, 1 limit ${CLUSTER_TABLES}`;

const CONNECTIONS = `select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
  where backend_type in ('client backend', 'standalone backend') and datname = current_database()
  group by 1 order by 1`;

const CACHE = `select sum(blks_hit)::float8 / nullif(sum(blks_hit) + sum(blks_read), 0) as ratio
  from pg_stat_database where datname = current_database()`;

const LONGEST = `select pid, extract(epoch from now() - query_start)::float8 as seconds, state, left(query, 500) as query
  from pg_stat_activity
  where backend_type = 'client backend' and state <> 'idle' and pid <> pg_backend_pid() and query_start is not null
  order by query_start limit 1`;

export const EMBEDDED_NOTES = [
  'Embedded PGlite: one connection inside the server process, so no replicas, no replication lag and no other sessions or running queries to list.',
];

interface Overview {
  version: string;
  replica: boolean;
  bytes: number;
  lag: number | null;
}

async function read(run: Run): Promise<Omit<ClusterNode, 'id' | 'engine' | 'checkedAt' | 'notes'>> {
  const [overview] = await run<Overview>(OVERVIEW);
  const tables = await run<{ name: string; bytes: number; rows: number | null }>(TABLES);
  const connections = await run<{ state: string; n: number }>(CONNECTIONS);
  const [cache] = await run<{ ratio: number | null }>(CACHE);
  const [longest] = await run<ClusterQuery>(LONGEST);
  return {
    reachable: true,
    error: null,
    version: overview?.version ?? null,
    role: overview ? (overview.replica ? 'replica' : 'primary') : null,
    replicationLagSeconds: overview?.lag ?? null,
    databaseBytes: overview?.bytes ?? null,
    largestTables: tables.map(
      (t): ClusterTable => ({
        name: t.name,
        bytes: Number(t.bytes),
        estimatedRows: t.rows === null ? null : Number(t.rows),
      }),
    ),
    connections: Object.fromEntries(connections.map((c) => [c.state, Number(c.n)])),
    cacheHitRatio: cache?.ratio ?? null,
    longestQuery: longest
      ? { pid: Number(longest.pid), seconds: Number(longest.seconds), state: longest.state, query: longest.query }
      : null,
  };
}

function unreachable(target: ClusterTarget, err: unknown): ClusterNode {
  return {
    id: target.name,
    engine: target.engine,
    reachable: false,
    error: unreachableReason(err),
    checkedAt: new Date().toISOString(),
    version: null,
    role: null,
    replicationLagSeconds: null,
    databaseBytes: null,
    largestTables: [],
    connections: {},
    cacheHitRatio: null,
    longestQuery: null,
    notes: [],
  };
}

/** One node's health; a node that cannot be reached (or stops answering) comes back unreachable, never thrown. */
export async function collectNode(target: ClusterTarget): Promise<ClusterNode> {
  const checkedAt = () => new Date().toISOString();
  if (target.engine === 'pglite') {
    const run: Run = async <T>(text: string) => (await target.client.query<T>(text)).rows;
    try {
      return { id: target.name, engine: 'pglite', checkedAt: checkedAt(), notes: EMBEDDED_NOTES, ...(await read(run)) };
    } catch (err) {
      return unreachable(target, err);
    }
  }
  let client: Awaited<ReturnType<typeof connectCluster>> | undefined;
  try {
    client = await connectCluster(target.url, {
      connectTimeoutMs: CLUSTER_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: CLUSTER_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: CLUSTER_CONNECT_TIMEOUT_MS + 500,
      applicationName: 'tessera-clusters',
    });
    const connected = client;
    const run: Run = async <T>(text: string) => (await connected.query(text)).rows as T[];
    return { id: target.name, engine: 'postgres', checkedAt: checkedAt(), notes: [], ...(await read(run)) };
  } catch (err) {
    return unreachable(target, err);
  } finally {
    await client?.end().catch(() => {});
  }
}

/** Every node at once, keyed by name in the order given. */
export async function collectAll(targets: ClusterTarget[]): Promise<Record<string, ClusterNode>> {
  const nodes = await Promise.all(targets.map(collectNode));
  return Object.fromEntries(nodes.map((n) => [n.id, n]));
}
