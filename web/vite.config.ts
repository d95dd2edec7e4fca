import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes .br and .gz beside every hashed text asset, so the server sends them compressed without work. */
function precompress(): Plugin {
  return {
    name: 'tessera-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = path.join(options.dir ?? 'dist', 'assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = path.join(dir, name);
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content));
      }
    },
  };
}

/** The files of common/src and web/src/lib that the shell and the sign-in page import (the rest is split by page). */
const CORE_MODULES = new RegExp(
  [
    String.raw`[\\/]common[\\/]src[\\/](account-messages|alerts|auth-paths|constants|entities|errors|providers|roles|routes|settings|socket|theme|validation)\.ts$`,
    String.raw`[\\/]web[\\/]src[\\/]lib[\\/](api|client-errors|drawer-mode|navigator|session|settings|socket|store|upload-name)\.ts$`,
  ].join('|'),
);

// The API server `npm run dev` starts: the same PORT as `npm start`.
const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // Relative base: the server rewrites './assets/' to '/assets/' or the CDN host when it serves index.html,
  // and lazily loaded chunks then resolve against the entry's own URL.
  base: './',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // The shared rules and the client core the shell and /login need go in one chunk: as a dozen tiny chunks
        // each compressed on its own they cost the first page several kB more (decision 0004's budget). Only those:
        // the rules of one area (lookups, segments, contracts...) go with the pages that use them, or every new
        // area would make /login heavier.
        codeSplitting: {
          groups: [
            { name: 'core', test: CORE_MODULES },
            {
              name: 'mui-inputs',
              test: /[\\/]@mui[\\/]material[\\/](esm[\\/])?(InputBase|OutlinedInput|FilledInput|Input|InputLabel|FormControl|FormHelperText|FormLabel|TextField|Select|NativeSelect|Popover|Modal|Menu|MenuList|List|Portal|FocusTrap|Backdrop|Fade|Grow|Paper|ButtonBase|Button|Checkbox|SwitchBase|FormControlLabel|Divider|Typography|Link|Stack|Box|CircularProgress|Alert|IconButton|SvgIcon|utils|styles|internal|Transition)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/v1': api,
      '/v2': api,
      '/auth': api,
      '/oauth': api,
      '/healthz': api,
      '/ws': { target: api, ws: true },
    },
  },
});
