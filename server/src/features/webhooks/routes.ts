/**
 * /v2/webhooks (issue 33, decision 0066): an organization's administrators (super and root for any organization)
 * list, make, read, change and delete its webhook endpoints, rotate an endpoint's signing secret and send it a test
 * event. The secret is in the reply to a creation and to a rotation, and nowhere else ever. Changes are audited and
 * pushed to the organization's administrators' consoles.
 */
import { organizationChannel } from '@tessera/common/socket';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, WEBHOOK_PATHS, WEBHOOK_TEST_EVENT } from '@tessera/common/webhooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { BadRequest, Conflict } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { type AuditAction, actorOf, audit } from '../audit/record';
import type { Sealer } from '../keys/secrets';
import { creationTarget, listScope, reachableEndpoint, requireWebhookAdmin } from './access';
import { urlProblem } from './addresses';
import { findDelivery } from './deliveries';
import { enqueueWebhookEvent } from './enqueue';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointChange,
  type EndpointRow,
  insertEndpoint,
  listEndpoints,
  toEndpoint,
  updateEndpoint,
} from './repo';
import {
  deliveryReply,
  endpointBody,
  endpointDeletedReply,
  endpointParams,
  endpointPatch,
  endpointsReply,
  listQuery,
} from './schemas';
import type { WebhookSettings } from './settings';
import { newWebhookSecret } from './signing';

export interface WebhookRouteDeps {
  database: Database;
  hub: Pick<Hub, 'publish'>;
  sealer: Sealer;
  settings: WebhookSettings;
  /** Asks the worker for a round now (a test event was committed). */
  kick(): void;
}

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, sealer, settings } = deps;
  const guard = { preHandler: requireWebhookAdmin };

  const record = (db: Executor, request: FastifyRequest, action: AuditAction, row: EndpointRow, detail = {}) =>
    audit(db, {
      action,
      ...actorOf(request),
      targetType: 'webhook',
      targetId: row.id,
      detail: { organizationId: row.organizationId, ...detail },
    });

  /** Tells the organization's administrators' consoles (and super+ listening there). */
  const publish = (row: EndpointRow, item: object) =>
    hub
      .publish(organizationChannel(row.organizationId), { webhooks: { [row.id]: item } }, { minRank: 'admin' })
      .catch(() => undefined);

  /** The URL's full check, the resolution of its host included: a 400 naming body.url. */
  async function checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, settings.allowPrivate);
    if (problem) throw new BadRequest(problem, [{ path: 'body.url', message: problem }]);
  }

  r.get(
    WEBHOOK_PATHS.endpoints,
    { ...guard, schema: { querystring: listQuery, response: { 200: endpointsReply } } },
    async (request) => {
      const scope = listScope(request.user, request.query.organizationId);
      return { webhooks: keyed((await listEndpoints(database.db, scope)).map(toEndpoint)) };
    },
  );

  r.post(
    WEBHOOK_PATHS.endpoints,
    { ...guard, schema: { body: endpointBody, response: { 201: endpointsReply } } },
    async (request, reply) => {
      const { organizationId: requested, ...fields } = request.body;
      await checkUrl(fields.url);
      const secret = newWebhookSecret();
      const secretSealed = await sealer.seal(secret);
      const row = await database.transaction(async (tx) => {
        const organizationId = await creationTarget(tx, request.user, requested);
        if ((await countEndpoints(tx, organizationId)) >= WEBHOOK_LIMITS.endpointsPerOrganization) {
          throw new Conflict(WEBHOOK_MESSAGES.tooMany);
        }
        const created = await insertEndpoint(tx, {
          ...fields,
          organizationId,
          secretSealed,
          disabledAt: fields.enabled ? null : new Date(),
          disabledReason: fields.enabled ? null : 'manual',
          createdBy: request.user.id,
        });
        await record(tx, request, 'webhook.create', created, {
          host: new URL(created.url).host,
          events: created.events,
        });
        return created;
      });
      await publish(row, toEndpoint(row));
      reply.code(201);
      return { webhooks: keyed([{ ...toEndpoint(row), secret }]) };
    },
  );

  r.get(
    WEBHOOK_PATHS.endpoint(':id'),
    { ...guard, schema: { params: endpointParams, response: { 200: endpointsReply } } },
    async (request) => {
      const row = await reachableEndpoint(database.db, request.user, request.params.id);
      return { webhooks: keyed([toEndpoint(row)]) };
    },
  );

  r.put(
    WEBHOOK_PATHS.endpoint(':id'),
    { ...guard, schema: { params: endpointParams, body: endpointPatch, response: { 200: endpointsReply } } },
    async (request) => {
      const { body } = request;
      if (body.url !== undefined) await checkUrl(body.url);
      const row = await database.transaction(async (tx) => {
        const current = await reachableEndpoint(tx, request.user, request.params.id, true);
        const change: EndpointChange = { ...body };
        if (body.enabled === true && !current.enabled) {
          Object.assign(change, { disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
        } else if (body.enabled === false && current.enabled) {
          Object.assign(change, { disabledAt: new Date(), disabledReason: 'manual' });
        }
        const updated = await updateEndpoint(tx, current.id, change);
        await record(tx, request, 'webhook.update', updated, { fields: Object.keys(body) });
        return updated;
      });
      await publish(row, toEndpoint(row));
      if (body.enabled === true) deps.kick(); // its pending deliveries are due again
      return { webhooks: keyed([toEndpoint(row)]) };
    },
  );

  r.delete(
    WEBHOOK_PATHS.endpoint(':id'),
    { ...guard, schema: { params: endpointParams, response: { 200: endpointDeletedReply } } },
    async (request) => {
      const row = await database.transaction(async (tx) => {
        const current = await reachableEndpoint(tx, request.user, request.params.id, true);
        await deleteEndpoint(tx, current.id);
        await record(tx, request, 'webhook.delete', current);
        return current;
      });
      const gone = deleted(row.id);
      await publish(row, gone[row.id]!);
      return { webhooks: gone };
    },
  );

  r.post(
    WEBHOOK_PATHS.rotateSecret(':id'),
    { ...guard, schema: { params: endpointParams, response: { 200: endpointsReply } } },
    async (request) => {
      const secret = newWebhookSecret();
      const secretSealed = await sealer.seal(secret);
      const row = await database.transaction(async (tx) => {
        const current = await reachableEndpoint(tx, request.user, request.params.id, true);
        const overlap = settings.secretOverlapMs > 0;
        const updated = await updateEndpoint(tx, current.id, {
          secretSealed,
          previousSecretSealed: overlap ? current.secretSealed : null,
          previousValidUntil: overlap ? new Date(Date.now() + settings.secretOverlapMs) : null,
        });
        await record(tx, request, 'webhook.rotate', updated, { overlapSeconds: settings.secretOverlapMs / 1000 });
        return updated;
      });
      await publish(row, toEndpoint(row));
      return { webhooks: keyed([{ ...toEndpoint(row), secret }]) };
    },
  );

  r.post(
    WEBHOOK_PATHS.test(':id'),
    { ...guard, schema: { params: endpointParams, response: { 202: deliveryReply } } },
    async (request, reply) => {
      const delivery = await database.transaction(async (tx) => {
        const endpoint = await reachableEndpoint(tx, request.user, request.params.id, true);
        if (!endpoint.enabled) throw new Conflict(WEBHOOK_MESSAGES.disabled);
        const enqueued = await enqueueWebhookEvent(tx, {
          organizationId: endpoint.organizationId,
          type: WEBHOOK_TEST_EVENT,
          endpointId: endpoint.id,
          data: {
            endpointId: endpoint.id,
            organizationId: endpoint.organizationId,
            message: 'This is a test event from Tessera.',
          },
        });
        await record(tx, request, 'webhook.test', endpoint, { messageId: enqueued!.messageId });
        return findDelivery(tx, endpoint.id, enqueued!.deliveryIds[0]!);
      });
      deps.kick();
      reply.code(202);
      return { webhookDelivery: delivery! };
    },
  );
}
