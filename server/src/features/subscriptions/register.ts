/**
 * Change subscriptions with the app (issue 33 item 2, decision 0067): the /v2/subscriptions routes, the billing of
 * each delivered `identity.changed` event, and the notifier and the changes' retention, run where webhook deliveries
 * are sent (WEBHOOK_WORKER; tests run a pass with `app.subscriptions.runOnce()`). The changes themselves are caught
 * by storeRecordsSql's statement and the suppressions' trigger (migration 0037).
 */
import type { FastifyInstance } from 'fastify';
import { periodicJob } from '../../jobs/periodic';
import type { LookupDeps } from '../identities/service';
import { billDeliveredEvent, mayServe } from './billing';
import { createNotifier, type Notifier } from './notifier';
import { CHANGE_RETENTION_EVERY_MS, pruneChanges } from './retention';
import { registerSubscriptionRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: Notifier;
  }
}

export interface SubscriptionDeps extends LookupDeps {
  /** Whether this process runs the notifier (WEBHOOK_WORKER). */
  worker: boolean;
}

export function registerSubscriptions(app: FastifyInstance, deps: SubscriptionDeps): Notifier {
  const { database } = deps;
  registerSubscriptionRoutes(app, deps);
  app.webhooks.onDelivered('identity.changed', billDeliveredEvent);
  const notifier = createNotifier({
    database,
    templates: deps.templates,
    logger: app.log,
    mayServe: (organizationId, purpose) => mayServe(deps.billing, organizationId, purpose),
    kick: () => app.webhooks.kick(),
  });
  app.decorate('subscriptions', notifier);
  const retention = periodicJob({
    name: 'change retention',
    run: (stopping) => pruneChanges(database, new Date(), stopping),
    logger: app.log,
  });
  if (deps.worker) {
    app.addHook('onReady', async () => {
      notifier.start();
      retention.start(CHANGE_RETENTION_EVERY_MS);
    });
  }
  app.addHook('onClose', () => retention.stop());
  app.addHook('onClose', () => notifier.stop());
  return notifier;
}
