// npm test: unit and integration tests on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), then the
// browser tests in real Chromium when it is installed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildClientsIfNeeded } from './build-clients.mjs';
import { buildConsoleIfNeeded, root } from './build-if-needed.mjs';
import { chromiumPath } from './chromium.mjs';

const e2eOnly = process.argv.includes('--e2e-only');
const projects = e2eOnly ? [] : ['common', 'server', 'web', 'clients'];
if (!e2eOnly && process.env.TEST_DATABASE_URL) projects.push('server-postgres');

const chrome = chromiumPath();
if (chrome) {
  buildConsoleIfNeeded();
  buildClientsIfNeeded(); // the Client Libraries page installs them
  projects.push('e2e');
} else {
  console.log('Browser tests skipped: no Chromium found; run `apt-get install -y chromium` or set CHROME_PATH.');
  if (e2eOnly) process.exit(1);
}

const args = [
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  ...process.argv.slice(2).filter((a) => a !== '--e2e-only'),
];
const env = { ...process.env, ...(chrome ? { CHROME_PATH: chrome } : {}) };
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: 'inherit', env });
process.exit(result.status ?? 1);
