/** Opens what a running server needs, in order, and closes it in reverse. Shared by main and the CLI. */
import { type Config, ConfigError } from './config';
import { type Database, openDatabase } from './db/client';
import { DataDirInUse } from './db/data-dir-lock';
import { migrate } from './db/migrate';
import { ensureRootUser } from './features/users/service';
import { type Fanout, memoryFanout, redisFanout } from './socket/fanout';

/** Opens and migrates the database, and makes the first root user when asked (saying what it did). */
export async function openStorage(config: Config, report: (line: string) => void = () => {}): Promise<Database> {
  let database: Database;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    if (err instanceof DataDirInUse) throw new ConfigError(err.message);
    throw err;
  }
  try {
    await migrate(database);
    const root = await ensureRootUser(database, config.rootEmail, config.rootPassword);
    if (root !== 'not asked') report(`ROOT_EMAIL: root user ${root}.`);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

export function openFanout(config: Config): Promise<Fanout> {
  return config.redisUrl ? redisFanout(config.redisUrl) : Promise.resolve(memoryFanout());
}
