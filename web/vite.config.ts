import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server `npm run dev` starts: the same PORT as `npm start`.
const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // Relative base: the server rewrites './assets/' to '/assets/' or the CDN host when it serves index.html,
  // and lazily loaded chunks then resolve against the entry's own URL.
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
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
