/**
 * Issue 28, finding 1 (High): a template that fails on a real record must not hand the record out in an unmetered
 * answer. A failure on real records answers a fixed message per error class, with no value, no $error/$assert text
 * and no position (which can differ by branch, so by the data), and the call is metered and audited as served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { createTemplate } from '../templates/repo';
import { load, person } from './test-people';

let t: TestApp;
let cookie: string;
let userId: number;
let organizationId: number;
const api = consoleClient(() => t.app);
const p = person();
const q = person();
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await makeCustomer(t.database);
  userId = customer.id;
  organizationId = customer.organizationId!;
  cookie = await signIn(t.app, customer.email);
  await load(t.database, p);
  await load(t.database, q);
});
afterAll(() => t.app.close());

const own = async (expression: string) =>
  (await createTemplate(t.database, { name: 'Probe', organizationId, createdBy: userId, expression, publish: true }))
    .id;

/** What of `who` a reply must never carry. */
const secrets = (who: ReturnType<typeof person>) => [who.lastName, who.emails[0]!.address, who.phones[0]!.number];

const usageOf = (requestId: unknown) =>
  t.database.query<{ status: number; identities: number; path: string }>(
    'select status, identities, path from usage where request_id = $1',
    [String(requestId)],
  );
const auditOf = (requestId: unknown) =>
  t.database.query<{ identity_ids: string[] }>('select identity_ids from lookup_audit where request_id = $1', [
    String(requestId),
  ]);

/** Expects the reply to hold none of the record, and the call to be metered and audited as serving `who`. */
async function expectMeteredWithoutLeak(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  who: ReturnType<typeof person>,
  path: string,
) {
  expect(res.statusCode, res.body).toBe(422);
  for (const secret of secrets(who)) expect(res.body).not.toContain(secret);
  expect(res.body).not.toMatch(/at character/);
  const requestId = res.headers['x-request-id'];
  expect(await usageOf(requestId)).toEqual([{ status: 422, identities: 1, path }]);
  const audited = await auditOf(requestId);
  expect(audited.map((a) => a.identity_ids.map(Number))).toEqual([[who.id]]);
}

describe('a template failing on a real record', () => {
  it('answers $assert with a fixed message, metered and audited (GET, POST, preview)', async () => {
    const id = await own('$assert(false, $string($))');
    const get = await api.get(`/v2/identities/byId?id=${p.id}&template=${id}`, cookie);
    await expectMeteredWithoutLeak(get, p, '/byId');
    expect(get.json().error).toMatch(/\$error\(\) or \$assert\(\)/);

    const post = await api.post('/v2/identities/byId', cookie, { inputs: [{ id: String(p.id) }], template: id });
    await expectMeteredWithoutLeak(post, p, '/byId');

    const preview = await api.post('/v2/templates/preview', cookie, {
      expression: '$assert(false, $string($))',
      sample: { identityId: String(p.id) },
    });
    // A preview of a real identity is metered under its own path, so usage tells it apart from a lookup (issue 32).
    await expectMeteredWithoutLeak(preview, p, '/templates/preview');
  });

  it('answers the same words whichever branch failed, so a failure tells nothing of the record', async () => {
    // Both branches fail with the same class of error at different characters of the template.
    const expression = `firstName = ${JSON.stringify(p.firstName)} ? $number("a") : (      $number("b"))`;
    const id = await own(expression);
    const first = await api.get(`/v2/identities/byId?id=${p.id}&template=${id}`, cookie);
    const second = await api.get(`/v2/identities/byId?id=${q.id}&template=${id}`, cookie);
    expect(first.statusCode).toBe(422);
    expect(second.statusCode).toBe(422);
    expect(first.json().error).toBe(second.json().error);
    expect(first.json().fields ?? null).toEqual(second.json().fields ?? null);
    await expectMeteredWithoutLeak(first, p, '/byId');
    await expectMeteredWithoutLeak(second, q, '/byId');
  });

  it('hides the kind of a wrong output, which is the data’s', async () => {
    const id = await own('lastName');
    const res = await api.get(`/v2/identities/byId?id=${p.id}&template=${id}`, cookie);
    await expectMeteredWithoutLeak(res, p, '/byId');
    expect(res.json().error).not.toContain('it produced');
  });

  it('meters and audits a streamed PUT whose template fails on its first batch', async () => {
    const id = await own('$assert(false, $string($))');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/identities/byId?template=${id}`,
      headers: { ...CONSOLE_HEADERS, cookie, 'content-type': 'text/csv' },
      payload: `id\r\n${p.id}\r\n`,
    });
    await expectMeteredWithoutLeak(res, p, '/byId');
  });

  it('still explains a failure in full on the synthetic sample, which holds no one', async () => {
    const res = await api.post('/v2/templates/preview', cookie, { expression: '{ "n": $number(lastName) }' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/D3030.*at character \d+/);
    expect(await usageOf(res.headers['x-request-id'])).toEqual([]);
  });
});
