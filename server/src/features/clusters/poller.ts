/**
 * One poller per process (decision 0036): it starts when the first socket of this process joins the clusters
 * channel (only root may) and stops when the last one leaves, however many tabs are open. Each round reads every
 * node at once and pushes the result to the channel; the next round starts a poll interval after the last one
 * ended, so a node that stalls slows the refresh by at most its connect timeout and rounds never pile up.
 */
import { CLUSTER_POLL_MS, CLUSTERS_CHANNEL, type ClusterNode } from '@tessera/common/clusters';
import type { FastifyBaseLogger } from 'fastify';
import type { Hub } from '../../socket/hub';

export interface ClusterPoller {
  /** Whether a round is scheduled or running. */
  readonly running: boolean;
  /** Rounds completed since the process started (tests read it). */
  readonly rounds: number;
  stop(): void;
}

export function createClusterPoller(deps: {
  hub: Hub;
  collect: () => Promise<Record<string, ClusterNode>>;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): ClusterPoller {
  const interval = deps.intervalMs ?? CLUSTER_POLL_MS;
  /** Bumped at each start and stop: a round of an earlier generation ends without scheduling another. */
  let generation = 0;
  let running = false;
  let rounds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function round(mine: number): Promise<void> {
    try {
      const clusters = await deps.collect();
      if (mine !== generation) return;
      rounds++;
      await deps.hub.publish(CLUSTERS_CHANNEL, { clusters }, { minRank: 'root' });
    } catch (err) {
      deps.log.warn({ err }, 'cluster poll failed');
    }
    if (mine === generation) timer = setTimeout(() => void round(mine), interval);
  }

  function start(): void {
    running = true;
    generation++;
    void round(generation);
  }

  function stop(): void {
    running = false;
    generation++;
    clearTimeout(timer);
  }

  deps.hub.watchChannel(CLUSTERS_CHANNEL, (members) => {
    if (members > 0 && !running) start();
    else if (members === 0 && running) stop();
  });

  return {
    get running() {
      return running;
    },
    get rounds() {
      return rounds;
    },
    stop,
  };
}
