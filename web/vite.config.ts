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
        // The shared rules and the client core go in one chunk: as a dozen tiny chunks each compressed on its
        // own they cost the first page several kB more (decision 0004's budget).
        codeSplitting: {
          groups: [
            { name: 'core', test: /[\\/](common[\\/]src|web[\\/]src[\\/]lib)[\\/]/ },
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
