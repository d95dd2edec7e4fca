// Bench only: runs bench/dist/main.js (bench/src/operator-server.ts, compiled as the server is) the way
// scripts/start.mjs runs server/dist/main.js; the cluster's workers run this script as well.
import { fileURLToPath } from 'node:url';

const { start } = await import('../dist/main.js');
await start(fileURLToPath(import.meta.url)).catch((err) => {
  console.error(err);
  process.exit(1);
});
