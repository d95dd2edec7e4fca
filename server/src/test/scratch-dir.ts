/**
 * Scratch folders for tests. `npm test` (scripts/test.mjs) makes one folder for the run, hands it down as
 * TESSERA_TEST_TMP and removes it at the end, so a run no longer leaves hundreds of folders under /tmp; a Vitest
 * started by hand uses the system's temporary folder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A new folder named `tessera-<prefix>-…` under this run's scratch folder. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(path.join(process.env.TESSERA_TEST_TMP || tmpdir(), `tessera-${prefix}-`));
}
