/**
 * An endpoint's delivery log and replays (decision 0066), for whoever may manage the endpoint (access.ts). A replay
 * is a new delivery of the same message (the same webhook-id, so a receiver that already has it can drop it) with a
 * fresh schedule of attempts; the delivery replayed keeps its own log.
 */
import { WEBHOOK_MESSAGES, WEBHOOK_PATHS } from '@tessera/common/webhooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { Conflict, NotFound } from '../../http/errors';
import { actorOf, audit } from '../audit/record';
import { reachableEndpoint, requireWebhookAdmin } from './access';
import { deliveryPage, findDelivery, insertReplay } from './deliveries';
import { deliveriesQuery, deliveryPageReply, deliveryParams, deliveryReply, endpointParams } from './schemas';

export function registerDeliveryRoutes(app: FastifyInstance, deps: { database: Database; kick(): void }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const guard = { preHandler: requireWebhookAdmin };

  r.get(
    WEBHOOK_PATHS.deliveries(':id'),
    {
      ...guard,
      schema: { params: endpointParams, querystring: deliveriesQuery, response: { 200: deliveryPageReply } },
    },
    async (request) => {
      const endpoint = await reachableEndpoint(database.db, request.user, request.params.id);
      return { webhookDeliveries: await deliveryPage(database.db, endpoint.id, request.query) };
    },
  );

  r.post(
    WEBHOOK_PATHS.replay(':id', ':deliveryId'),
    { ...guard, schema: { params: deliveryParams, response: { 202: deliveryReply } } },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const delivery = await database.transaction(async (tx) => {
        const endpoint = await reachableEndpoint(tx, request.user, id, true);
        const replayed = await insertReplay(tx, endpoint.id, deliveryId);
        if (replayed === null) throw new NotFound(WEBHOOK_MESSAGES.deliveryNotFound);
        if (!endpoint.enabled) throw new Conflict(WEBHOOK_MESSAGES.disabled);
        const made = await findDelivery(tx, endpoint.id, replayed);
        await audit(tx, {
          action: 'webhook.replay',
          ...actorOf(request),
          targetType: 'webhook',
          targetId: endpoint.id,
          detail: { organizationId: endpoint.organizationId, deliveryId, messageId: made!.messageId },
        });
        return made!;
      });
      deps.kick();
      reply.code(202);
      return { webhookDelivery: delivery };
    },
  );
}
