// npm start: build the console, the server and the client packages if needed, then migrate and serve (the server migrates as it starts).
// The server runs as compiled JavaScript (server/dist, decision 0024): no TypeScript loader in production.
import { buildClientsIfNeeded } from './build-clients.mjs';
import { buildConsoleIfNeeded } from './build-if-needed.mjs';
import { buildServerIfNeeded } from './build-server.mjs';

buildConsoleIfNeeded();
await buildServerIfNeeded();
buildClientsIfNeeded();
const { serve } = await import('../server/dist/main.js');
await serve().catch((err) => {
  console.error(err?.constructor?.name === 'ConfigError' ? err.message : err);
  process.exit(1);
});
