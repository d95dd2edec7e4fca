/** Environments for the deployment tests: real host folders deployed by scripts/deploy-local.mjs, and slow ones. */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../config';

/** Prints progress, ignores SIGTERM (so SIGKILL must follow) and never ends by itself. */
const SLOW = [
  "process.on('SIGTERM', () => console.log('got SIGTERM, ignoring'));",
  "console.log('::progress 10');",
  "console.log('working on ' + process.argv[1]);",
  'setInterval(() => {}, 1000);',
].join('\n');

export function testEnvironments() {
  const suffix = randomUUID().slice(0, 8);
  const base = mkdtempSync(path.join(tmpdir(), 'tessera-hosts-'));
  const host = (name: string) => {
    const dir = path.join(base, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const deploy = [
    process.execPath,
    path.join(REPO_ROOT, 'scripts/deploy-local.mjs'),
    '{host}',
    '{version}',
    '{artifact}',
    '{sha256}',
  ];
  const slow = [process.execPath, '-e', SLOW, '{host}'];
  const broken = host('fail-2');
  // A file where the script wants its releases folder: this host fails until the file is removed.
  writeFileSync(path.join(broken, 'releases'), 'not a folder');
  const names = {
    real: `real-${suffix}`,
    fail: `fail-${suffix}`,
    slow: `slow-${suffix}`,
    restart: `restart-${suffix}`,
  };
  const environments = [
    { name: names.real, hosts: [host('real-1'), host('real-2')], command: deploy, parallelism: 2, serves: true },
    { name: names.fail, hosts: [host('fail-1'), broken, host('fail-3')], command: deploy, parallelism: 1 },
    { name: names.slow, hosts: [host('slow-1'), host('slow-2')], command: slow, graceSeconds: 1 },
    { name: names.restart, hosts: [host('restart-1')], command: slow, graceSeconds: 1 },
  ];
  return { names, environments, broken, setting: JSON.stringify(environments) };
}

/** Polls until `check` gives a value (never a time assertion: it only waits for what must happen). */
export async function until<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  limitMs = 30_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
