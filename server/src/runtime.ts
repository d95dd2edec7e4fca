/** Opens what a running server needs, in order, and closes it in reverse. Shared by main and the CLI. */
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { ensureRootUser } from './features/users/service';
import { type Fanout, memoryFanout, redisFanout } from './socket/fanout';

export async function openStorage(config: Config): Promise<Database> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
    await ensureRootUser(database, config.rootEmail, config.rootPassword);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

export function openFanout(config: Config): Promise<Fanout> {
  return config.redisUrl ? redisFanout(config.redisUrl) : Promise.resolve(memoryFanout());
}
