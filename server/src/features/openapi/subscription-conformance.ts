/**
 * The subscription operations of the OpenAPI document against the real app (issue 33 item 2), run by
 * conformance.test.ts with its `call`, which checks every reply against the document and keeps the successes as its
 * examples.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';

type Call = (
  operationId: string,
  options: {
    params?: Record<string, string | number>;
    query?: Record<string, string>;
    body?: unknown;
    headers?: Record<string, string>;
  },
  expected?: number,
) => Promise<LightMyRequestResponse>;

export function describeSubscriptions(
  call: Call,
  context: () => { t: TestApp; unsigned: string; bearer: Record<string, string>; ids: number[]; emails: string[] },
): void {
  describe('subscriptions, as documented', () => {
    it('makes, lists, reads and deletes a subscription, and refuses as documented', async () => {
      const { t, unsigned, bearer, ids, emails } = context();
      const json = { ...bearer, 'content-type': 'application/json' };
      const made = await call('createSubscription', { body: { email: emails[0] }, headers: json }, 201);
      const item = Object.values(made.json().subscriptions)[0] as { id: number; organizationId: number };
      await call('listSubscriptions', { headers: bearer }, 200);
      await call('getSubscription', { params: { id: item.id }, headers: bearer }, 200);
      await call('deleteSubscription', { params: { id: item.id }, headers: bearer }, 200);

      await call('createSubscription', { body: {}, headers: json }, 400);
      await call('createSubscription', { body: { identityId: 999_999_999_999 }, headers: json }, 404);
      await call(
        'createSubscription',
        { body: { identityId: ids[0] }, headers: { 'content-type': 'application/json', 'x-requested-with': 'x' } },
        401,
      );
      await t.database.query('update contracts set subscription_limit = 0 where organization_id = $1', [
        item.organizationId,
      ]);
      const over = await call('createSubscription', { body: { identityId: ids[0] }, headers: json }, 409);
      expect(over.json().error).toMatch(/limit of 0 subscriptions/);
      await t.database.query('update contracts set subscription_limit = null where organization_id = $1', [
        item.organizationId,
      ]);
      await call('getSubscription', { params: { id: item.id }, headers: bearer }, 404);
      await call('deleteSubscription', { params: { id: item.id }, headers: bearer }, 404);
      await call('getSubscription', { params: { id: 'abc' }, headers: bearer }, 400);
      for (const [id, params] of [
        ['listSubscriptions', {}],
        ['getSubscription', { id: item.id }],
        ['deleteSubscription', { id: item.id }],
      ] as const) {
        await call(id, { params, headers: { cookie: unsigned, 'x-requested-with': 'XMLHttpRequest' } }, 451);
      }
      await call(
        'createSubscription',
        {
          body: { identityId: ids[0] },
          headers: { cookie: unsigned, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        },
        451,
      );
    });
  });
}
