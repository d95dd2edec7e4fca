/**
 * A migrated embedded database, made once per Vitest process by its global setup and copied for each server or CLI
 * child that needs storage of its own. A child given an empty folder applies every migration before it does what
 * its test is about: `tessera user create` on a copy takes about half its time on an empty folder (bench
 * test-storage: median ratio 0.472 over 5 interleaved rounds), and the suite starts about a hundred such children.
 * Tests of first-start behaviour keep an empty folder (`emptyStorageEnv`).
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import type {} from './provided-context';
import { scratchDir } from './scratch-dir';

/** Makes the migrated folder; the returned function removes it. */
export async function makePgliteTemplate(): Promise<{ dir: string; remove: () => void }> {
  const dir = scratchDir('template');
  const database = await openDatabase({ dataDir: dir });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 }) };
}

/** A new data folder (`DATA_DIR`) holding a copy of this run's migrated database. */
export function migratedDataDir(prefix: string): string {
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('No migrated database template: the project needs server/src/test/global-setup.ts.');
  const dir = scratchDir(prefix);
  cpSync(path.join(template, 'pglite'), path.join(dir, 'pglite'), { recursive: true });
  return dir;
}
