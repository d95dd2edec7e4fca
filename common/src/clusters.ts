/**
 * Clusters (issue 20): the database nodes the server knows, their health as the Clusters page shows it, and the
 * socket channel that refreshes it. The main database is always listed as `main`.
 */

export const MAIN_CLUSTER = 'main';

/** A cluster's name in the CLUSTERS setting: lowercase letters, digits, '-' and '_', starting with a letter. */
export const CLUSTER_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/** The socket channel the Clusters page listens on; the server lets only root subscribe. */
export const CLUSTERS_CHANNEL = 'system:clusters';

/** How often the server refreshes the nodes while someone has the page open. */
export const CLUSTER_POLL_MS = 3_000;

/** How long a node may take to accept a connection before it counts as unreachable. */
export const CLUSTER_CONNECT_TIMEOUT_MS = 2_000;

/** How many of the largest tables a node lists. */
export const CLUSTER_TABLES = 10;

export interface ClusterTable {
  /** schema.table */
  name: string;
  bytes: number;
  /** The planner's estimate (pg_class.reltuples); null before the table was first analysed. */
  estimatedRows: number | null;
}

export interface ClusterQuery {
  pid: number;
  seconds: number;
  state: string;
  /** The statement's text, cut at 500 characters. */
  query: string;
}

export interface ClusterNode {
  /** The cluster's name (the store keys clusters by it). */
  id: string;
  engine: 'pglite' | 'postgres';
  reachable: boolean;
  /** Why it is unreachable or partly unknown. */
  error: string | null;
  checkedAt: string;
  version: string | null;
  role: 'primary' | 'replica' | null;
  /** Seconds the replica's replay is behind; 0 when it has replayed all it received; null on a primary. */
  replicationLagSeconds: number | null;
  databaseBytes: number | null;
  largestTables: ClusterTable[];
  /** Client connections by state (active, idle, idle in transaction, ...). */
  connections: Record<string, number>;
  /** Share of block reads served from the buffer cache, 0 to 1; null before any block was read. */
  cacheHitRatio: number | null;
  longestQuery: ClusterQuery | null;
  /** What this node cannot tell (the embedded engine has no replicas and no other sessions). */
  notes: string[];
}
