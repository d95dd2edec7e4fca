/**
 * The webhook operations of the OpenAPI document against the real app (issue 33), run by conformance.test.ts with
 * its `call`, which checks every reply against the document and keeps the successes as its examples. This suite's
 * workers are off (test harness), so nothing is sent to the example's address.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';

type Call = (
  operationId: string,
  options: {
    params?: Record<string, string | number>;
    query?: Record<string, string>;
    body?: unknown;
    headers?: Record<string, string>;
    payload?: string | Buffer;
  },
  expected?: number,
) => Promise<LightMyRequestResponse>;

export function describeWebhooks(call: Call, context: () => { t: TestApp; unsigned: string }): void {
  describe('webhooks, as documented', () => {
    it('makes, reads, changes, tests, logs, replays, rotates and deletes an endpoint, and refuses as documented', async () => {
      const { t, unsigned } = context();
      const org = await makeOrganization(t.database, 'Riverbend Retail');
      const other = await makeOrganization(t.database);
      const admin = await signIn(t.app, (await makeUser(t.database, 'admin', org.id)).email);
      const member = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
      const json = { ...CONSOLE_HEADERS, cookie: admin };
      const bare = { 'x-requested-with': 'XMLHttpRequest', cookie: admin };
      const made = await call(
        'createWebhook',
        {
          body: {
            url: 'https://93.184.215.14/webhooks/tessera',
            description: 'CRM sync',
            events: ['identity.changed', 'job.completed'],
          },
          headers: json,
        },
        201,
      );
      const id = Number(Object.keys(made.json().webhooks)[0]);
      await call('listWebhooks', { headers: { cookie: admin } }, 200);
      await call('getWebhook', { params: { id }, headers: { cookie: admin } }, 200);
      await call('updateWebhook', { params: { id }, body: { description: 'CRM sync (EU)' }, headers: json }, 200);
      const test = await call('testWebhook', { params: { id }, headers: bare }, 202);
      const deliveryId = test.json().webhookDelivery.id as number;
      await call(
        'listWebhookDeliveries',
        { params: { id }, query: { pageSize: '10' }, headers: { cookie: admin } },
        200,
      );
      await call('replayWebhookDelivery', { params: { id, deliveryId }, headers: bare }, 202);
      await call('rotateWebhookSecret', { params: { id }, headers: bare }, 200);

      await call(
        'createWebhook',
        { body: { url: 'http://93.184.215.14/', events: ['job.completed'] }, headers: json },
        400,
      );
      await call(
        'createWebhook',
        { body: { url: 'https://93.184.215.14/', events: ['job.completed'] }, headers: CONSOLE_HEADERS },
        401,
      );
      await call('listWebhooks', { headers: { cookie: member } }, 403);
      await call(
        'createWebhook',
        { body: { url: 'https://93.184.215.14/', events: ['job.completed'], organizationId: other.id }, headers: json },
        404,
      );
      await call('createWebhook', { payload: '<x/>', headers: { ...json, 'content-type': 'application/xml' } }, 415);
      await call('listWebhooks', { query: { organizationId: String(other.id) }, headers: { cookie: admin } }, 404);
      await call('getWebhook', { params: { id: 2_000_000_000 }, headers: { cookie: admin } }, 404);
      await call('getWebhook', { params: { id: 'abc' }, headers: { cookie: admin } }, 400);
      await call('listWebhookDeliveries', { params: { id }, query: { after: 'x' }, headers: { cookie: admin } }, 400);
      await call('replayWebhookDelivery', { params: { id, deliveryId: 999_999_999 }, headers: bare }, 404);
      await call('updateWebhook', { params: { id }, body: { enabled: false }, headers: json }, 200);
      await call('testWebhook', { params: { id }, headers: bare }, 409);
      await call('replayWebhookDelivery', { params: { id, deliveryId }, headers: bare }, 409);

      const signer = { ...CONSOLE_HEADERS, cookie: unsigned };
      await call('listWebhooks', { headers: signer }, 451);
      await call(
        'createWebhook',
        { body: { url: 'https://93.184.215.14/', events: ['job.completed'] }, headers: signer },
        451,
      );
      await call('getWebhook', { params: { id }, headers: signer }, 451);
      await call('updateWebhook', { params: { id }, body: { description: 'x' }, headers: signer }, 451);
      await call('deleteWebhook', { params: { id }, headers: signer }, 451);
      await call('rotateWebhookSecret', { params: { id }, headers: signer }, 451);
      await call('testWebhook', { params: { id }, headers: signer }, 451);
      await call('listWebhookDeliveries', { params: { id }, headers: signer }, 451);
      await call('replayWebhookDelivery', { params: { id, deliveryId }, headers: signer }, 451);

      const gone = await call('deleteWebhook', { params: { id }, headers: bare }, 200);
      expect(Object.keys(gone.json().webhooks[id]).sort()).toEqual(['deletedAt', 'id']);
      await call('deleteWebhook', { params: { id }, headers: bare }, 404);
    });
  });
}
