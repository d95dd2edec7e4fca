/** Process entry: config -> database -> app -> listen. SIGTERM drains in-flight requests and exits 0. */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { ensureDemoOrganization } from './features/contracts/demo';
import { thousands } from './features/people/generate/progress';
import { seedIdentities } from './features/people/import/seed';
import { openFanout, openStorage } from './runtime';

const DRAIN_LIMIT_MS = 15_000;

export async function serve(): Promise<void> {
  const config = loadConfig();
  const database = await openStorage(config, (line) => console.log(line), true);
  const seeding = await seedIdentities(database, config.seedIdentities);
  if (seeding.seeded) {
    await ensureDemoOrganization(database);
    const { loaded, seconds } = seeding.summary;
    console.log(
      `Seeded the empty embedded database with ${thousands(loaded)} generated identities in ${seconds.toFixed(1)} s.`,
    );
  }
  const fanout = await openFanout(config);
  const app = await buildApp({ config, database, fanout });
  await app.listen({ port: config.port, host: config.host });
  const address = new URL(config.publicUrl.href);
  app.log.info(
    `Tessera ${app.serverVersion} on ${database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'draining');
    setTimeout(() => {
      app.log.error('drain took too long; exiting');
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
    await app.close(); // stops accepting, answers 503 meanwhile, waits for in-flight requests, closes sockets
    await fanout.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Announced only once the handlers are in: a supervisor may signal the moment it reads this line.
  process.stdout.write(`\nTessera console: ${address.origin}/\n\n`);
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  serve().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
