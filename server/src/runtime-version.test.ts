/**
 * The runtime (issue 30, item 1; decision 0055): npm scripts run the Node 24 LTS that npm installs into
 * node_modules/.bin, whatever Node the machine has. `npm test` runs this file under that Node, and `npm start` runs
 * the server with the same binary.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from './config';

it('runs on the Node 24 that npm installs, which npm scripts find first', () => {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  expect(manifest.dependencies.node).toMatch(/^\^24\./);
  const installed = path.join(REPO_ROOT, 'node_modules/.bin/node');
  expect(execFileSync(installed, ['--version'], { encoding: 'utf8' })).toMatch(/^v24\./);
  // The tests themselves (npm test) run on it.
  expect(process.versions.node).toMatch(/^24\./);
  // And what `npm start` runs: npm's own lookup of `node` for a script.
  const started = execFileSync('npm', ['exec', '--', 'node', '--version'], { cwd: REPO_ROOT, encoding: 'utf8' });
  expect(started.trim()).toMatch(/^v24\./);
});
