/** Usage alerts with the app (decision 0029): the routes, the service, and its evaluations ended on close. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import type { Mailer } from '../../mail';
import type { Hub } from '../../socket/hub';
import { registerUsageAlertRoutes } from './routes';
import { createUsageAlerts, type UsageAlertService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests settle its evaluations rather than wait for them. */
    usageAlerts: UsageAlertService;
  }
}

export function registerUsageAlerts(
  app: FastifyInstance,
  deps: { database: Database; hub: Hub; mailer: Mailer; publicUrl: URL },
): UsageAlertService {
  const alerts = createUsageAlerts({ ...deps, logger: app.log });
  app.decorate('usageAlerts', alerts);
  registerUsageAlertRoutes(app, { database: deps.database, alerts });
  // onClose hooks run last-registered first: evaluations end before the mailer (registered earlier) drains.
  app.addHook('onClose', () => alerts.close());
  return alerts;
}
