/**
 * Webhooks with the app (issue 33, decision 0066): the endpoint and delivery-log routes, and the delivery worker,
 * started when the app is ready (unless WEBHOOK_WORKER=false) and stopped, its sends finished, when it closes.
 * Other features write events with enqueueWebhookEvent (enqueue.ts) in their own transactions and may call
 * `app.webhooks.kick()` after the commit to have them sent at once.
 */
import { organizationChannel } from '@tessera/common/socket';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import type { Mailer } from '../../mail';
import type { Hub } from '../../socket/hub';
import type { Sealer } from '../keys/secrets';
import { findOrganization } from '../organizations/repo';
import { organizationAdmins } from '../usage-alerts/repo';
import { registerDeliveryRoutes } from './delivery-routes';
import { disabledMail, webhooksLink } from './mail';
import { type EndpointRow, toEndpoint } from './repo';
import { pruneWebhookLog, RETENTION_EVERY_MS } from './retention';
import { registerWebhookRoutes } from './routes';
import type { WebhookSettings } from './settings';
import { createWebhookWorker, type WebhookWorker } from './worker';

export { enqueueWebhookEvent } from './enqueue';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookWorker;
  }
}

export interface WebhookDeps {
  database: Database;
  hub: Pick<Hub, 'publish'>;
  mailer: Pick<Mailer, 'send'>;
  sealer: Sealer;
  settings: WebhookSettings;
  publicUrl: URL;
}

export function registerWebhooks(app: FastifyInstance, deps: WebhookDeps): WebhookWorker {
  const { database, hub, mailer, settings, publicUrl } = deps;

  /** The run of failures disabled an endpoint: its organization's consoles are told, and its administrators mailed. */
  async function onDisabled(endpoint: EndpointRow): Promise<void> {
    await hub
      .publish(
        organizationChannel(endpoint.organizationId),
        { webhooks: { [endpoint.id]: toEndpoint(endpoint) } },
        { minRank: 'admin' },
      )
      .catch(() => undefined);
    const organization = await findOrganization(database.db, endpoint.organizationId);
    if (!organization) return;
    const link = webhooksLink(publicUrl);
    for (const admin of await organizationAdmins(database.db, endpoint.organizationId)) {
      mailer.send(
        disabledMail({
          to: admin.email,
          name: admin.name,
          organizationName: organization.name,
          url: endpoint.url,
          description: endpoint.description,
          failures: endpoint.consecutiveFailures,
          link,
        }),
      );
    }
  }

  const worker = createWebhookWorker({ database, sealer: deps.sealer, settings, logger: app.log, onDisabled });
  app.decorate('webhooks', worker);
  registerWebhookRoutes(app, { database, hub, sealer: deps.sealer, settings, kick: worker.kick });
  registerDeliveryRoutes(app, { database, kick: worker.kick });
  // The delivery log's retention runs where deliveries are sent (retention.ts).
  const retention = periodicJob({
    name: 'webhook log retention',
    run: (stopping) => pruneWebhookLog(database, settings.logRetentionDays, new Date(), stopping),
    logger: app.log,
  });
  if (settings.worker) {
    app.addHook('onReady', async () => {
      worker.start();
      retention.start(RETENTION_EVERY_MS);
    });
  }
  app.addHook('onClose', () => retention.stop());
  // onClose hooks run last-registered first: the worker's sends end before the mailer (registered earlier) drains.
  app.addHook('onClose', () => worker.stop());
  return worker;
}
