/** Runs the usage rollup aggregator with the app, every second, and once more as the app closes (decision 0045). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import { aggregateUsage } from './aggregator';

/** How often each process tries; one run at a time across them all, so more processes do not mean more runs. */
export const AGGREGATE_EVERY_MS = 1000;

export function registerUsageRollups(app: FastifyInstance, deps: { database: Database }) {
  const job = periodicJob({ name: 'usage rollups', run: () => aggregateUsage(deps.database), logger: app.log });
  app.addHook('onReady', async () => job.start(AGGREGATE_EVERY_MS));
  app.addHook('onClose', async () => {
    await job.stop();
  });
  return job;
}
