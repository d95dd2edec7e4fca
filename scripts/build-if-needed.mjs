// Builds the console when web/dist is missing or older than any source it is built from.
//
// Each build goes to a folder of its own under web/.builds, and web/dist is a link swapped to it in one rename. A
// server resolves the link when it starts (server/src/config.ts), so a build made while a server runs (another
// test run, `npm run build` during `npm start`) never takes away the files of the pages that server has sent.
// Builds no server can still be using (older than a day, and not the current one) are removed.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
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
    if (entry === 'node_modules' || entry === 'dist' || entry === '.builds') continue;
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

const BUILDS = path.join(root, 'web/.builds');
const KEEP_MS = 24 * 60 * 60 * 1000;

/** Builds the console into a new folder and points web/dist at it; exits the process if the build fails. */
export function buildConsole() {
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const outDir = path.join(BUILDS, name);
  const result = spawnSync('npm', ['run', '-s', '-w', 'web', 'build', '--', '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  const dist = path.join(root, 'web/dist');
  // A real folder (a build from before builds were linked) cannot be renamed over: it goes first.
  if (existsSync(dist) && !lstatSync(dist).isSymbolicLink()) rmSync(dist, { recursive: true, force: true });
  const link = `${dist}.link-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(path.join('.builds', name), link);
  renameSync(link, dist);
  removeOldBuilds(name);
}

function removeOldBuilds(current) {
  for (const entry of readdirSync(BUILDS)) {
    if (entry === current) continue;
    const folder = path.join(BUILDS, entry);
    if (Date.now() - statSync(folder).mtimeMs > KEEP_MS) rmSync(folder, { recursive: true, force: true });
  }
}

/** Where web/dist points now (for messages and tests). */
export function currentConsoleBuild() {
  const dist = path.join(root, 'web/dist');
  return existsSync(dist) && lstatSync(dist).isSymbolicLink() ? readlinkSync(dist) : dist;
}

export function buildConsoleIfNeeded() {
  if (!consoleIsStale()) return;
  console.log('Building the console (web/dist)...');
  buildConsole();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--force')) buildConsole();
  else buildConsoleIfNeeded();
}
