// Type checks every workspace with its own tsconfig; exits non-zero if any fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from './build-if-needed.mjs';

let failed = false;
for (const ws of ['common', 'server', 'web', 'e2e', 'bench']) {
  if (!existsSync(path.join(root, ws, 'tsconfig.json'))) continue;
  const r = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', ws], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
