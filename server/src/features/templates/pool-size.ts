/**
 * How many sandbox processes a server process runs (decision 0049): a function of the machine's cores and of the
 * server processes sharing them (a cluster's workers, decision 0043), so a bigger machine evaluates more templates at
 * once while one core stays the server's.
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';

/** Past this a server's one thread, which sends every job and reads every result, is the bottleneck, not cores. */
export const MAX_SANDBOX_PROCESSES = 8;

/**
 * The cores but one (the server's: its event loop, JSON, the embedded database), shared among the server processes,
 * at most MAX_SANDBOX_PROCESSES. Never fewer than two where there are two cores: with two, one organization holding
 * its share (one) leaves the other to everyone else, so a bomb never makes another organization wait (fair-queue.ts).
 * 1 core: 1; 2 or 3: 2; 4: 3; 9 and more: 8 (one server process); 8 cores with 8 workers: 2 each, as before.
 */
export function sandboxSize(cores: number, serverProcesses = 1): number {
  const spare = Math.floor((cores - 1) / Math.max(1, serverProcesses));
  return Math.max(Math.min(2, cores), Math.min(MAX_SANDBOX_PROCESSES, spare));
}

/** This machine's size: a cluster worker shares the cores with WEB_CONCURRENCY - 1 others. */
export const machineSandboxSize = (webConcurrency: number) =>
  sandboxSize(availableParallelism(), cluster.isWorker ? webConcurrency : 1);
