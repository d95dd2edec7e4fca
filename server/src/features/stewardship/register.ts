/**
 * Data stewardship (issue 22, decision 0039): opt-out requests, the suppression list, the lookup audit trail's
 * search and its keyed hash (handed to the lookups, which write the trail with their usage rows), and the
 * retention job for the audit trail, page views, contact messages and expired opt-out requests.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Mailer } from '../../mail';
import { lazyValueHasher, type ValueHasher } from '../lookup-audit/hmac';
import type { Limiter } from '../throttle/limiter';
import { registerAuditRoutes } from './audit-routes';
import { registerOptOutRoutes } from './opt-out-routes';
import { createDataRetention } from './retention';
import { registerSuppressionRoutes } from './suppression-routes';

export function registerStewardship(
  app: FastifyInstance,
  deps: { database: Database; mailer: Mailer; limiter: Limiter; config: Pick<Config, 'publicUrl' | 'dataRetention'> },
): { auditHasher: () => Promise<ValueHasher> } {
  const { database } = deps;
  const auditHasher = lazyValueHasher(database);
  registerOptOutRoutes(app, { database, mailer: deps.mailer, limiter: deps.limiter, publicUrl: deps.config.publicUrl });
  registerSuppressionRoutes(app, { database });
  registerAuditRoutes(app, { database, auditHasher });
  const retention = createDataRetention({ database, settings: deps.config.dataRetention, logger: app.log });
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', () => retention.stop());
  return { auditHasher };
}
