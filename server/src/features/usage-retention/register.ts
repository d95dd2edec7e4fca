/** Starts the usage retention job with the app and stops it when the app closes (decision 0029). */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { createUsageRetention, type UsageRetention } from './retention';

export function registerUsageRetention(
  app: FastifyInstance,
  deps: { database: Database; config: Pick<Config, 'usageRetentionMonths'> },
): UsageRetention {
  const retention = createUsageRetention({
    database: deps.database,
    months: deps.config.usageRetentionMonths,
    logger: app.log,
  });
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', () => retention.stop());
  return retention;
}
