#!/usr/bin/env node
// The `tessera` command (package.json "bin"): runs the compiled CLI, server/dist/cli.js, which `npm run build` (and
// `npm start`) builds with the server (decision 0054), so a deployment installed with `--omit=dev` has the CLI too.
// A missing or stale build is not built here (esbuild is a dev package): it says how to build it. In a checkout,
// `npm run tessera -- <command>` runs the TypeScript source on tsx instead.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { root } from './build-if-needed.mjs';
import { SERVER_OUT, serverIsStale } from './build-server.mjs';

/** Runs the CLI built in `outdir` with this process's arguments; exit code 1 and a line saying why when it cannot. */
export async function launch(outdir = SERVER_OUT) {
  const cli = path.join(outdir, 'cli.js');
  if (serverIsStale(outdir, 'cli.js')) {
    const state = existsSync(cli) ? 'is older than its sources' : 'is not built';
    console.error(
      `tessera: the compiled CLI (${cli}) ${state}: run \`npm run build\` in ${root}, or \`npm run tessera -- <command>\` in a development checkout.`,
    );
    process.exitCode = 1;
    return;
  }
  await import(pathToFileURL(cli).href);
}

// Run as the bin (often through a link in node_modules/.bin or a global prefix) or as `node scripts/tessera.mjs`.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await launch();
