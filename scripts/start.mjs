// npm start: build the console if needed, then migrate and serve (the server migrates as it starts).
import { register } from 'tsx/esm/api';
import { buildConsoleIfNeeded } from './build-if-needed.mjs';

buildConsoleIfNeeded();
register();
const { serve } = await import('../server/src/main.ts');
await serve().catch((err) => {
  console.error(err?.name === 'ConfigError' ? err.message : err);
  process.exit(1);
});
