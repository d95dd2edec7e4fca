/** Makes the monthly partitions of usage and the lookup audit trail ahead: at start, then hourly (decision 0047). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { ensureMonths, MONTHLY_TABLES, type MonthlyTable, monthStart } from '../../db/month-partitions';
import { periodicJob } from '../../jobs/periodic';

const EVERY_MS = 3600_000;

/** The last month, this month and the next two, for every partitioned table. */
export async function ensureCurrentMonths(database: Database, now = new Date()): Promise<void> {
  for (const table of Object.keys(MONTHLY_TABLES) as MonthlyTable[]) {
    await ensureMonths(database, table, monthStart(now, -1), monthStart(now, 2));
  }
}

export function registerPartitions(app: FastifyInstance, deps: { database: Database }) {
  const job = periodicJob({ name: 'partition upkeep', run: () => ensureCurrentMonths(deps.database), logger: app.log });
  app.addHook('onReady', async () => job.start(EVERY_MS));
  app.addHook('onClose', async () => {
    await job.stop();
  });
  return job;
}
