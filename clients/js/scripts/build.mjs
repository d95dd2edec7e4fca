#!/usr/bin/env node
/**
 * Builds dist/: type-checks the sources and writes their declarations (tsc), then ESM (dist/esm) and CommonJS
 * (dist/cjs) with esbuild, file for file (no bundling, so the main and node entries share one module graph), the
 * declarations beside each. The version is written in from package.json, its one place.
 * Uses the repository's esbuild and TypeScript (this package's devDependencies when built on its own).
 *
 * It builds into a folder of its own and swaps it in at the end, so that a build running beside another (two test
 * runs at once) never leaves dist/ half written or missing for the other.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const started = Date.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const finalDist = path.join(root, 'dist');
const dist = path.join(root, `dist.building-${process.pid}`);
const require = createRequire(path.join(root, 'package.json'));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

rmSync(dist, { recursive: true, force: true });
for (const entry of readdirSync(root)) {
  // Left by a build that was killed (its process is gone).
  if (/^dist\.(building|old)-\d+$/.test(entry)) {
    const file = path.join(root, entry);
    try {
      process.kill(Number(entry.split('-').pop()), 0); // signal 0: only asks whether it still runs
    } catch (error) {
      if (error.code === 'ESRCH') rmSync(file, { recursive: true, force: true });
    }
  }
}

// 1. Type check and declarations.
const tsc = require.resolve('typescript/bin/tsc');
const checked = spawnSync(
  process.execPath,
  [tsc, '-p', path.join(root, 'tsconfig.json'), '--outDir', path.join(dist, 'types')],
  { cwd: root, stdio: 'inherit' },
);
if (checked.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  console.error('build: type errors (above)');
  process.exit(1);
}

// 2. JavaScript, both module formats.
const esbuild = await import(require.resolve('esbuild'));
const sources = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) sources.push(file);
  }
};
walk(path.join(root, 'src'));

for (const [format, dir, type] of [
  ['esm', 'esm', 'module'],
  ['cjs', 'cjs', 'commonjs'],
]) {
  await esbuild.build({
    entryPoints: sources,
    outdir: path.join(dist, dir),
    outbase: path.join(root, 'src'),
    format,
    platform: 'neutral',
    target: 'es2022',
    bundle: false,
    logLevel: 'warning',
    define: { __TESSERA_CLIENT_VERSION__: JSON.stringify(pkg.version) },
  });
  cpSync(path.join(dist, 'types'), path.join(dist, dir), { recursive: true });
  writeFileSync(path.join(dist, dir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
rmSync(path.join(dist, 'types'), { recursive: true, force: true });

// 3. Swap the new build in.
const old = `${finalDist}.old-${process.pid}`;
try {
  if (existsSync(finalDist)) renameSync(finalDist, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error; // another build moved it first
}
try {
  renameSync(dist, finalDist);
} catch (error) {
  // Another build, from the same sources, swapped its own in at the same moment: keep that one.
  if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  rmSync(dist, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });

console.log(`built ${pkg.name} ${pkg.version} (esm, cjs, types) in ${Date.now() - started} ms`);
