/** Opens what a running server needs, in order, and closes it in reverse. Shared by main and the CLI. */
import { type Config, ConfigError } from './config';
import { type Database, openDatabase } from './db/client';
import { DataDirInUse } from './db/data-dir-lock';
import { migrate } from './db/migrate';
import { RoleSettingsError } from './db/role-settings';
import { ensureRootUser } from './features/users/service';
import { type Fanout, memoryFanout, redisFanout } from './socket/fanout';
import { deploymentNamespace, type RedisPlace } from './socket/redis-namespace';

/**
 * Opens and migrates the database, makes the first root user when asked (saying what it did), and with REDIS_URL
 * settles the deployment's Redis namespace (config.redisNamespace) before anything opens Redis.
 */
export async function openStorage(
  config: Config,
  report: (line: string) => void = () => {},
  /** The server waits on PostgreSQL only so long (db/timeouts.ts); the CLI's bulk work may take its time. */
  serving = false,
): Promise<Database> {
  let database: Database;
  try {
    database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: serving ? config.databaseTimeouts : null,
      poolMode: config.databasePoolMode,
      report,
    });
  } catch (err) {
    // Told as a configuration problem: a message for the operator, not a stack.
    if (err instanceof DataDirInUse || err instanceof RoleSettingsError) throw new ConfigError(err.message);
    throw err;
  }
  try {
    await migrate(database);
    const root = await ensureRootUser(database, config.rootEmail, config.rootPassword);
    if (root !== 'not asked') report(`ROOT_EMAIL: root user ${root}.`);
    if (config.redisUrl && !config.redisNamespace) {
      await redisPlace(config, database);
      report(`Redis namespace ${config.redisNamespace} (derived from the database; REDIS_NAMESPACE overrides it).`);
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/**
 * Where this deployment keeps its Redis channels and keys (null without REDIS_URL). The namespace is REDIS_NAMESPACE
 * or, unset, derived from the database and written back to `config.redisNamespace`, so that every part opened
 * from this config afterwards uses the same one.
 */
export async function redisPlace(config: Config, database: Database): Promise<RedisPlace | null> {
  if (!config.redisUrl) return null;
  config.redisNamespace ??= await deploymentNamespace(database);
  return { url: config.redisUrl, namespace: config.redisNamespace };
}

/** The fan-out for a config that openStorage (or redisPlace) has settled. */
export async function openFanout(config: Config): Promise<Fanout> {
  if (!config.redisUrl) return memoryFanout();
  if (!config.redisNamespace) throw new Error('The Redis namespace is not settled: open the storage first.');
  return redisFanout({ url: config.redisUrl, namespace: config.redisNamespace });
}
