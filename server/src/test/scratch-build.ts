/**
 * For tests of the production build: scripts/build-server.mjs run into a folder of the test's own, two folders below
 * the repository root as server/dist is (the bundles find package.json and web/dist from there), removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPO_ROOT } from '../config';

/** Builds before the file's tests and removes the build after them; `folder()` is where it is. */
export function scratchBuild(): { folder: () => string } {
  let outdir = '';
  beforeAll(() => {
    outdir = mkdtempSync(path.join(REPO_ROOT, 'server', 'dist-test-'));
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
  });
  afterAll(() => {
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });
  return { folder: () => outdir };
}
