/**
 * For the PostgreSQL run: a fresh database per test run, migrated once, dropped at the end, so runs never
 * see each other's rows. The PGlite runs (the server suite, the browser tests, the client libraries) get a migrated
 * data folder that children's storage is copied from (pglite-template.ts); each worker's own database is in memory.
 */
import type { TestProject } from 'vitest/node';
import { scratchDatabase } from './databases';
import { makePgliteTemplate } from './pglite-template';
import type {} from './provided-context';

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (project.name !== 'server-postgres' || !base) {
    project.provide('databaseUrl', null);
    const template = await makePgliteTemplate();
    project.provide('pgliteTemplate', template.dir);
    return template.remove;
  }
  project.provide('pgliteTemplate', null);
  const scratch = await scratchDatabase(base, 'server');
  const { openDatabase } = await import('../db/client');
  const { migrate } = await import('../db/migrate');
  const database = await openDatabase({ url: scratch.url });
  await migrate(database);
  await database.close();
  project.provide('databaseUrl', scratch.url);
  return () => scratch.drop();
}
