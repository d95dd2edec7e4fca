/**
 * A process per core (decision 0043). The primary serves nothing: it forks WEB_CONCURRENCY workers, each the whole
 * server listening on the same port (node:cluster hands them connections in turn), replaces one that dies (after a
 * pause that doubles while replacements keep dying young, so a crash loop does not spin), and on SIGTERM or SIGINT
 * drains them all and exits 0 when every one of them did.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** What a worker sends the primary once it listens with its signal handlers in place. */
export const WORKER_READY = 'tessera:ready';

/** First pause before a replacement; it doubles up to BACKOFF_MAX_MS while workers keep dying young. */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** A worker that served this long before it died was healthy: the pauses start over. */
export const STABLE_MS = 60_000;

export interface SupervisorOptions {
  /** How many workers serve (WEB_CONCURRENCY). */
  count: number;
  /** The script a worker runs: the server's entry, which serves as a worker under cluster.isWorker. */
  entry: string;
  log: Logger;
  /** How long a worker may take to drain (it gives up by itself then); the primary waits a little longer. */
  drainLimitMs: number;
  /** Called once, when every first worker listens. */
  onReady(): void;
}

/** The pause before replacing a worker, given how many in a row died within STABLE_MS of starting. */
export function backoffMs(youngDeaths: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, youngDeaths - 1));
}

export function superviseWorkers(options: SupervisorOptions): void {
  const { count, log } = options;
  cluster.setupPrimary({ exec: options.entry });
  const live = new Map<Worker, { startedAt: number; ready: boolean }>();
  const restarts = new Set<NodeJS.Timeout>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  let youngDeaths = 0;

  const fork = () => {
    const worker = cluster.fork();
    const state = { startedAt: Date.now(), ready: false };
    live.set(worker, state);
    worker.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== WORKER_READY || state.ready) return;
      state.ready = true;
      if (stopping) {
        worker.process.kill('SIGTERM'); // it started while the others were draining: it drains too
        return;
      }
      if (!announced && [...live.values()].filter((s) => s.ready).length === count) {
        announced = true;
        options.onReady();
      }
    });
  };

  const finish = () => {
    log.info({ exitCode }, exitCode === 0 ? 'every server process drained' : 'server processes stopped');
    process.exit(exitCode); // the primary's own lines are written synchronously: nothing is pending
  };

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    log.info({ reason, processes: live.size }, 'draining');
    // A worker not yet listening has nothing in flight; one that has not set up its handlers simply ends.
    for (const worker of live.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.error({ processes: live.size }, 'server processes took too long to drain; ending them');
      for (const worker of live.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, options.drainLimitMs + 5_000).unref();
    if (live.size === 0) finish();
  };

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const state = live.get(worker);
    live.delete(worker);
    const pid = worker.process.pid;
    if (stopping) {
      // Ended before it listened (it had no handler yet): nothing was in flight, so that is clean too.
      const clean = code === 0 || (!state?.ready && signal === 'SIGTERM');
      if (!clean) {
        exitCode = 1;
        log.error({ worker: pid, code, signal }, 'a server process did not drain cleanly');
      }
      if (live.size === 0) finish();
      return;
    }
    if (!announced) {
      // A worker that cannot start (the port is taken, the database refuses) would fail again: give up at once.
      log.error({ worker: pid, code, signal }, 'a server process failed to start; stopping');
      exitCode = 1;
      stop('a server process failed to start');
      return;
    }
    const lived = Date.now() - (state?.startedAt ?? 0);
    youngDeaths = lived < STABLE_MS ? youngDeaths + 1 : 1;
    const delayMs = backoffMs(youngDeaths);
    log.error(
      { worker: pid, code, signal, restartInMs: delayMs },
      'a server process exited unexpectedly; starting another',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    restarts.add(timer);
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork();
}
