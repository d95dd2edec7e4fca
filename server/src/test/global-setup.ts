/**
 * For the PostgreSQL run: a fresh database per test run, migrated once, dropped at the end, so runs never
 * see each other's rows. The PGlite run needs nothing here: each worker opens its own in-memory database.
 */
import type { TestProject } from 'vitest/node';
import { scratchDatabase } from './databases';
import type {} from './provided-context';

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (project.name !== 'server-postgres' || !base) {
    project.provide('databaseUrl', null);
    return;
  }
  const scratch = await scratchDatabase(base, 'server');
  const { openDatabase } = await import('../db/client');
  const { migrate } = await import('../db/migrate');
  const database = await openDatabase({ url: scratch.url });
  await migrate(database);
  await database.close();
  project.provide('databaseUrl', scratch.url);
  return () => scratch.drop();
}
