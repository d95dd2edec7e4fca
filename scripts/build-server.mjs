// Compiles the server for `npm start` (decision 0024): server/src/main.ts bundled by esbuild into server/dist/main.js
// (Node 20, ESM), with the workspace package @tessera/common inside it and every other package left to node_modules.
// The `tessera` CLI is built beside it (decision 0054): server/dist/cli.js, which imports main.js for `serve`, and
// parse-worker.js, the import's parsing thread.
// Files the server finds beside its own code are copied beside the bundle: the template sandbox's child process
// (sandbox-child.mjs) and the SQL migrations. The bundle must sit two folders below the repository root, as
// server/src/config.ts does, since it finds package.json and web/dist from there.
import { cpSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest, root } from './build-if-needed.mjs';

export const SERVER_OUT = path.join(root, 'server/dist');
const ENTRY = path.join(root, 'server/src/main.ts');
const CLI_ENTRY = path.join(root, 'server/src/cli/main.ts');
/** The CLI's bundles, beside the server's (only with the server's own entry: the bench builds another). */
const CLI_ENTRIES = {
  cli: CLI_ENTRY,
  'parse-worker': path.join(root, 'server/src/features/people/import/parse-worker.ts'),
};
/** What the bundle is built from: a change to any of these makes it stale. */
const SOURCES = ['server/src', 'common/src', 'server/tsconfig.json', 'tsconfig.base.json', 'scripts/build-server.mjs'];
/** Runtime files the server reads relative to its own module, copied beside the bundle. */
const BESIDE = [
  ['server/src/features/templates/sandbox-child.mjs', 'sandbox-child.mjs'],
  ['server/src/db/migrations', 'migrations'],
];

/** Packages stay external (resolved from node_modules at run time), except the workspace's own TypeScript ones. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@tessera/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * The CLI's `serve` imports the server's module: from the bundle, the server's own bundle beside it (./main.js), not
 * a copy, which would start serving as it loads (main.ts serves when its module is the script run).
 */
const cliImportsServer = {
  name: 'cli-imports-server',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/main$/ }, (args) =>
      args.importer === CLI_ENTRY ? { path: './main.js', external: true } : undefined,
    );
  },
};

/** `entry`: another entry than the server's own, bundled the same way (the bench's operator-like server). */
export async function buildServer(outdir = SERVER_OUT, entry = ENTRY) {
  const depth = path.relative(root, outdir).split(path.sep).length;
  if (depth !== 2 || !path.resolve(outdir).startsWith(root)) {
    throw new Error(`the server bundle must sit two folders below ${root} (like server/dist), not in ${outdir}`);
  }
  // Built beside and then renamed into place, so a start never finds half a build.
  const building = `${outdir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  // Loaded only to build: a start on a fresh build needs no build tool (a deployment may prune dev packages).
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      entryPoints: { main: entry, ...(entry === ENTRY && CLI_ENTRIES) },
      outdir: building,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      sourcemap: true,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [cliImportsServer, externalPackages],
    });
    for (const [from, to] of BESIDE) cpSync(path.join(root, from), path.join(building, to), { recursive: true });
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    throw err;
  } finally {
    // esbuild keeps a helper process for later builds: end it, or it stays beside a server started after a build.
    await esbuild.stop();
  }
  rmSync(outdir, { recursive: true, force: true });
  renameSync(building, outdir);
}

/** `file`: the bundle to check (cli.js for the `tessera` bin); all are built together. */
export function serverIsStale(outdir = SERVER_OUT, file = 'main.js') {
  const built = path.join(outdir, file);
  if (!existsSync(built)) return true;
  return Math.max(...SOURCES.map((s) => newest(path.join(root, s)))) > statSync(built).mtimeMs;
}

export async function buildServerIfNeeded() {
  if (!serverIsStale()) return;
  console.log('Building the server (server/dist)...');
  await buildServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const option = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? path.resolve(process.argv[at + 1]) : fallback;
  };
  await buildServer(option('--outdir', SERVER_OUT), option('--entry', ENTRY));
}
