/**
 * Every channel and key a deployment uses in Redis starts with `tessera:{namespace}:`, so deployments sharing one
 * Redis never see each other's pushes, session moves, counters or cache drops (pub/sub ignores the database index).
 * The namespace is REDIS_NAMESPACE, or derived from the database the deployment runs on (decision 0019).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client';

/** One deployment's place in Redis: the server, and the namespace all its channels and keys live under. */
export interface RedisPlace {
  url: string;
  namespace: string;
}

/** The full Redis name of a channel or key of this deployment, e.g. `tessera:3f2a…:fanout`. */
export function redisName(place: RedisPlace, ...parts: (string | number)[]): string {
  return ['tessera', place.namespace, ...parts].join(':');
}

/** Kept in server_secrets on first start, so that every process of the deployment derives the same namespace. */
const DEPLOYMENT_ID = 'deployment_id';

export interface DatabaseIdentity {
  /** pg_control_system()'s system_identifier: the cluster's, kept by its physical replicas, new in a restored dump. */
  systemIdentifier: string | null;
  /** current_database(): tells apart deployments on one PostgreSQL server. */
  databaseName: string;
  /** A random id stored in the database on first start: tells apart PGlite databases, which all share a name. */
  deploymentId: string;
}

/** 16 hex characters of SHA-256 over the three: a different value in any of them is a different deployment. */
export function namespaceOf(identity: DatabaseIdentity): string {
  const { systemIdentifier, databaseName, deploymentId } = identity;
  return createHash('sha256')
    .update(JSON.stringify([systemIdentifier ?? '', databaseName, deploymentId]))
    .digest('hex')
    .slice(0, 16);
}

export async function databaseIdentity(database: Database): Promise<DatabaseIdentity> {
  await database.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    DEPLOYMENT_ID,
    randomBytes(16).toString('hex'),
  ]);
  const [row] = await database.query<{ value: string; database_name: string }>(
    'select value, current_database() as database_name from server_secrets where name = $1',
    [DEPLOYMENT_ID],
  );
  let systemIdentifier: string | null = null;
  try {
    const [control] = await database.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    systemIdentifier = control?.id ?? null;
  } catch {
    // A server that refuses pg_control_system() to our role still has a stored id and a database name.
  }
  return { systemIdentifier, databaseName: row!.database_name, deploymentId: row!.value };
}

/** The namespace of the deployment whose database this is (the same from every process and every start). */
export async function deploymentNamespace(database: Database): Promise<string> {
  return namespaceOf(await databaseIdentity(database));
}
