// Builds the console when web/dist is missing or older than any source it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time under a file or folder, node_modules and dist aside. */
export function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(path.join(target, entry)));
  }
  return latest;
}

export function consoleIsStale() {
  const built = path.join(root, 'web/dist/index.html');
  if (!existsSync(built)) return true;
  const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'common/src'];
  return Math.max(...sources.map((s) => newest(path.join(root, s)))) > statSync(built).mtimeMs;
}

export function buildConsoleIfNeeded() {
  if (!consoleIsStale()) return;
  console.log('Building the console (web/dist)...');
  const result = spawnSync('npm', ['run', '-s', '-w', 'web', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildConsoleIfNeeded();
