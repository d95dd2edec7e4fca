/**
 * Process entry: config -> database -> app -> listen. SIGTERM drains in-flight requests and exits 0.
 * On PostgreSQL with WEB_CONCURRENCY above 1 (one per core by default) this process is a cluster's primary: it
 * migrates, then forks that many workers, each of which runs this module again and serves (decision 0043).
 */
import cluster from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app';
import { superviseWorkers, WORKER_READY } from './cluster';
import { answerMetricsRequests, serveClusterMetrics } from './cluster-metrics';
import { relayForWorkers, workerFanout, workerLimiter, workerRates } from './cluster-shared';
import { type Config, ConfigError, loadConfig } from './config';
import type { Database } from './db/client';
import { connectionBudgetWarning } from './db/connection-budget';
import { ensureDemoOrganization } from './features/contracts/demo';
import { thousands } from './features/people/generate/progress';
import { seedIdentities } from './features/people/import/seed';
import type { Metering } from './features/usage/metering';
import { endLogs, loggerOptions } from './logger';
import { startTracing } from './observability/tracing';
import { openFanout, openStorage } from './runtime';

/** How long a drain may take once the listener closes (DRAIN_DELAY_SECONDS come before it). */
const DRAIN_LIMIT_MS = 15_000;
/** How long the drain waits for the last traces to reach their collector. */
const TRACES_FLUSH_MS = 2_000;

/** For the bench only (bench/src/operator-server.ts): the same server with another metering, started its own way. */
export interface ServeOptions {
  /** The script every worker runs (default: this module's file). */
  entry?: string;
  metering?(database: Database): Metering;
}

export async function serve(options: ServeOptions = {}): Promise<void> {
  const config = loadConfig();
  if (cluster.isWorker) {
    answerMetricsRequests(); // from the start: the primary's scrape asks every worker, this one too
    return serveHttp(config, true, options);
  }
  if (config.webConcurrency > 1) return servePrimary(config, options.entry ?? fileURLToPath(import.meta.url));
  return serveHttp(config, false, options);
}

/** Migrates (and makes the first root user) once, then starts the workers and waits for them all to listen. */
async function servePrimary(config: Config, entry: string): Promise<void> {
  const log = pino(loggerOptions(config.logLevel)); // a few lines, written as they come
  const database = await openStorage(config, (line) => console.log(line), true);
  if (config.databasePoolMode !== 'transaction') {
    const warning = await connectionBudgetWarning(database, config.webConcurrency);
    if (warning) log.warn(warning);
  }
  await database.close();
  // Without Redis the workers share the fan-out and the counters through this process.
  if (!config.redisUrl) relayForWorkers();
  serveClusterMetrics(); // a scrape of any worker answers for the whole machine
  const address = new URL(config.publicUrl.href);
  superviseWorkers({
    count: config.webConcurrency,
    entry,
    log,
    drainLimitMs: DRAIN_LIMIT_MS + config.drainDelaySeconds * 1000,
    onReady() {
      log.info(`Tessera on PostgreSQL: ${config.webConcurrency} server processes (WEB_CONCURRENCY)`);
      // The primary relays SIGTERM and SIGINT to every worker from the start, so a supervisor may signal at once.
      process.stdout.write(`\nTessera console: ${address.origin}/\n\n`);
    },
  });
}

/** The server itself: alone (the embedded database, or WEB_CONCURRENCY=1), or as one of a cluster's workers. */
async function serveHttp(config: Config, worker: boolean, options: ServeOptions): Promise<void> {
  // A worker's primary has migrated and said what it did; the worker's own pass finds nothing to do.
  const database = await openStorage(config, worker ? () => {} : (line) => console.log(line), true);
  if (!worker) {
    const seeding = await seedIdentities(database, config.seedIdentities);
    if (seeding.seeded) {
      await ensureDemoOrganization(database);
      const { loaded, seconds } = seeding.summary;
      console.log(
        `Seeded the empty embedded database with ${thousands(loaded)} generated identities in ${seconds.toFixed(1)} s.`,
      );
    }
  }
  const throughPrimary = worker && !config.redisUrl;
  const fanout = throughPrimary ? workerFanout() : await openFanout(config);
  const shared = throughPrimary ? { limiter: workerLimiter(), rates: workerRates() } : {};
  const metering = options.metering?.(database);
  const app = await buildApp({ config, database, fanout, ...shared, ...(metering ? { metering } : {}) });
  const stopTracing = await startTracing({ endpoint: config.otlpEndpoint, version: app.serverVersion });
  await app.listen({ port: config.port, host: config.host });
  const address = new URL(config.publicUrl.href);
  app.log.info(
    `Tessera ${app.serverVersion} on ${database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    app.log.info({ signal }, 'draining');
    setTimeout(
      () => {
        app.log.error('drain took too long; exiting');
        process.exit(1); // pino writes out what it holds as the process exits
      },
      DRAIN_LIMIT_MS + config.drainDelaySeconds * 1000,
    ).unref();
    app.beginDrain(); // /readyz answers 503 from now on
    // Still serving meanwhile, so that a balancer checking /readyz stops sending here before the listener closes.
    if (config.drainDelaySeconds > 0) await sleep(config.drainDelaySeconds * 1000);
    await app.close(); // stops accepting, answers 503 meanwhile, waits for in-flight requests, closes sockets
    await fanout.close();
    await database.close();
    // Bounded: a collector that does not answer must not hold the exit past the drain limit.
    await Promise.race([
      stopTracing().catch((err: unknown) => app.log.warn({ err }, 'traces not all exported')),
      sleep(TRACES_FLUSH_MS),
    ]);
    app.log.info({ ms: Date.now() - started }, 'drained');
    await endLogs(app.log); // request lines are written off the request path: every one is out before exiting
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Announced only once the handlers are in: a supervisor may signal the moment it reads this line.
  if (worker) process.send?.({ type: WORKER_READY });
  else process.stdout.write(`\nTessera console: ${address.origin}/\n\n`);
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  serve().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
