/**
 * The console's calls to /v2/webhooks (issue 33, decision 0066). Endpoints are keyed replies merged into the store's
 * `webhooks` area, except that a creation's or rotation's reply carries the signing secret: that one is taken off
 * the merge and the secret handed to the dialog that shows it once, so the store never holds it. Deliveries are the
 * log's own, never the store's.
 */
import {
  WEBHOOK_PATHS,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookSubscribableEvent,
} from '@tessera/common/webhooks';
import { useMemo } from 'react';
import { api, request } from '../../lib/api';
import { useStore } from '../../lib/store';

export const WEBHOOKS_PATH = WEBHOOK_PATHS.endpoints;

/** What the editor sends. */
export interface EndpointFields {
  url: string;
  description: string;
  events: WebhookSubscribableEvent[];
  enabled: boolean;
  /** Super and root only, when creating: the organization it belongs to. */
  organizationId?: number;
}

/** An endpoint just made or rotated, with its secret: held only by the dialog that shows it. */
export interface NewSecret {
  endpoint: WebhookEndpoint;
  secret: string;
  rotated: boolean;
}

/** The one endpoint of a keyed reply, merged without its secret; the secret returned beside it. */
function takeSecret(reply: { webhooks?: Record<string, WebhookEndpoint> }, rotated: boolean): NewSecret {
  const [item] = Object.values(reply.webhooks ?? {});
  if (!item?.secret) throw new Error('The reply carries no signing secret.');
  const { secret, ...endpoint } = item;
  useStore.getState().merge({ webhooks: { [endpoint.id]: endpoint } });
  return { endpoint, secret, rotated };
}

export async function createEndpoint(fields: EndpointFields): Promise<NewSecret> {
  return takeSecret(await request('POST', WEBHOOKS_PATH, { body: fields, merge: false }), false);
}

export async function rotateSecret(id: number): Promise<NewSecret> {
  return takeSecret(await request('POST', WEBHOOK_PATHS.rotateSecret(id), { merge: false }), true);
}

export const updateEndpoint = (id: number, fields: Partial<EndpointFields>) =>
  api.put(WEBHOOK_PATHS.endpoint(id), fields);

export const deleteEndpoint = (id: number) => api.del(WEBHOOK_PATHS.endpoint(id));

/** Queues a webhook.test delivery to the endpoint; the reply is that delivery. */
export const sendTestEvent = (id: number) =>
  request<{ webhookDelivery: WebhookDelivery }>('POST', WEBHOOK_PATHS.test(id), { merge: false });

/** A new delivery of the same message (the same webhook-id) with a fresh schedule of attempts. */
export const replayDelivery = (id: number, deliveryId: number) =>
  request<{ webhookDelivery: WebhookDelivery }>('POST', WEBHOOK_PATHS.replay(id, deliveryId), { merge: false });

/** One page of an endpoint's delivery log, newest first; `after` is the previous page's `next`. */
export async function deliveryPage(id: number, pageSize: number, after: string | null): Promise<WebhookDeliveryPage> {
  const reply = await request<{ webhookDeliveries: WebhookDeliveryPage }>('GET', WEBHOOK_PATHS.deliveries(id), {
    query: { pageSize, after },
    merge: false,
  });
  return reply.webhookDeliveries;
}

/** The endpoints in the store, oldest first; those of one organization when `organizationId` is given. */
export function useEndpoints(organizationId?: number): WebhookEndpoint[] {
  const items = useStore((s) => s.areas.webhooks) as Record<string, WebhookEndpoint> | undefined;
  return useMemo(
    () =>
      Object.values(items ?? {})
        .filter((e) => organizationId === undefined || e.organizationId === organizationId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id),
    [items, organizationId],
  );
}

export const useEndpoint = (id: number) =>
  useStore((s) => (s.areas.webhooks as Record<string, WebhookEndpoint> | undefined)?.[String(id)]);
