/**
 * What /v2/webhooks refuses (decision 0066), each a 400 naming the field with the exact message of
 * common/webhooks.ts: malformed bodies, URLs that are not https (http only to loopback), and hosts that are or
 * resolve to loopback, link-local, private, metadata or other non-public addresses, IPv4-mapped forms included,
 * unless WEBHOOK_ALLOW_PRIVATE=true.
 */
import { lookup } from 'node:dns/promises';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES } from '@tessera/common/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { organizationWithAdmin } from './test-support';

let t: TestApp;
let open: TestApp;
let cookie: string;
let openCookie: string;
let endpointId: number;
const api = consoleClient(() => t.app);
const openApi = consoleClient(() => open.app);
beforeAll(async () => {
  t = await buildTestApp();
  // The same database, with private addresses allowed (as the delivery tests run).
  open = await buildTestApp({ database: t.database, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  ({ cookie } = await organizationWithAdmin(t));
  ({ cookie: openCookie } = await organizationWithAdmin(open));
  const made = await api.post('/v2/webhooks', cookie, { url: 'https://93.184.215.14/h', events: ['job.completed'] });
  endpointId = Number(Object.keys(made.json().webhooks)[0]);
});
afterAll(async () => {
  await t.app.close();
  await open.app.close();
});

const body = (extra: Record<string, unknown>) => ({
  url: 'https://93.184.215.14/h',
  events: ['job.completed'],
  ...extra,
});

async function refused(payload: Record<string, unknown>, path: string, message?: string) {
  const res = await api.post('/v2/webhooks', cookie, payload);
  expect(res.statusCode, res.body).toBe(400);
  const fields = res.json().fields as { path: string; message: string }[];
  expect(fields.map((f) => f.path)).toContain(path);
  if (message !== undefined) expect(fields.find((f) => f.path === path)!.message).toBe(message);
  return res;
}

describe('the body', () => {
  it.each([
    ['no url', { events: ['job.completed'] }, 'body.url', undefined],
    ['a url that is not text', body({ url: 42 }), 'body.url', WEBHOOK_MESSAGES.url],
    ['a url that is not one', body({ url: 'not a url' }), 'body.url', WEBHOOK_MESSAGES.url],
    ['ftp', body({ url: 'ftp://93.184.215.14/h' }), 'body.url', WEBHOOK_MESSAGES.urlScheme],
    ['credentials', body({ url: 'https://me:pw@93.184.215.14/h' }), 'body.url', WEBHOOK_MESSAGES.urlCredentials],
    ['a fragment', body({ url: 'https://93.184.215.14/h#part' }), 'body.url', WEBHOOK_MESSAGES.urlFragment],
    [
      'a url too long',
      body({ url: `https://93.184.215.14/${'a'.repeat(WEBHOOK_LIMITS.urlMax)}` }),
      'body.url',
      WEBHOOK_MESSAGES.urlTooLong,
    ],
    [
      'a description too long',
      body({ description: 'x'.repeat(WEBHOOK_LIMITS.descriptionMax + 1) }),
      'body.description',
      WEBHOOK_MESSAGES.description,
    ],
    ['no events', body({ events: [] }), 'body.events', WEBHOOK_MESSAGES.events],
    ['events that are not a list', body({ events: 'job.completed' }), 'body.events', WEBHOOK_MESSAGES.events],
    [
      'an unknown event',
      body({ events: ['job.finished'] }),
      'body.events',
      WEBHOOK_MESSAGES.eventUnknown('job.finished'),
    ],
    [
      'the test event',
      body({ events: ['webhook.test'] }),
      'body.events',
      WEBHOOK_MESSAGES.eventUnknown('webhook.test'),
    ],
    [
      'an event twice',
      body({ events: ['job.completed', 'job.completed'] }),
      'body.events',
      WEBHOOK_MESSAGES.eventRepeated('job.completed'),
    ],
    ['enabled not a boolean', body({ enabled: 'yes' }), 'body.enabled', undefined],
    ['an organization that is not an id', body({ organizationId: 'mine' }), 'body.organizationId', undefined],
  ])('refuses %s, naming %s', async (_, payload, path, message) => {
    await refused(payload, path, message);
  });

  it('refuses a field it does not know, and changing the organization of an endpoint', async () => {
    expect((await api.post('/v2/webhooks', cookie, body({ secret: 'whsec_mine' }))).statusCode).toBe(400);
    const moved = await api.put(`/v2/webhooks/${endpointId}`, cookie, { organizationId: 1 });
    expect(moved.statusCode).toBe(400);
  });

  it('checks a changed URL as a new one', async () => {
    const res = await api.put(`/v2/webhooks/${endpointId}`, cookie, { url: 'https://10.0.0.1/h' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { path: 'body.url', message: WEBHOOK_MESSAGES.blockedAddress('10.0.0.1', 'private') },
    ]);
    const empty = await api.put(`/v2/webhooks/${endpointId}`, cookie, { events: [] });
    expect(empty.json().fields).toEqual([{ path: 'body.events', message: WEBHOOK_MESSAGES.events }]);
  });
});

describe('where a webhook may go', () => {
  it('refuses plain http to anything but loopback, whatever WEBHOOK_ALLOW_PRIVATE says', async () => {
    for (const url of ['http://93.184.215.14/h', 'http://example.com/h', 'http://10.0.0.1/h']) {
      await refused(body({ url }), 'body.url', WEBHOOK_MESSAGES.urlScheme);
      const res = await openApi.post('/v2/webhooks', openCookie, body({ url }));
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'body.url', message: WEBHOOK_MESSAGES.urlScheme }]);
    }
  });

  it.each([
    ['https://10.0.0.1/h', '10.0.0.1', 'private'],
    ['https://172.16.5.4/h', '172.16.5.4', 'private'],
    ['https://192.168.1.10/h', '192.168.1.10', 'private'],
    ['https://127.0.0.1/h', '127.0.0.1', 'loopback'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254', 'cloud metadata'],
    ['https://169.254.10.1/h', '169.254.10.1', 'link-local'],
    ['https://100.64.0.1/h', '100.64.0.1', 'carrier-grade NAT'],
    ['https://0.0.0.0/h', '0.0.0.0', 'unspecified'],
    ['https://224.0.0.1/h', '224.0.0.1', 'multicast'],
    ['https://[::1]/h', '[::1]', 'loopback'],
    ['https://[fe80::1]/h', '[fe80::1]', 'link-local'],
    ['https://[fc00::1]/h', '[fc00::1]', 'unique local'],
    ['https://[fd12:3456::1]/h', '[fd12:3456::1]', 'unique local'],
    ['https://[::ffff:10.0.0.1]/h', '[::ffff:a00:1]', 'private'],
    ['https://[::ffff:169.254.169.254]/h', '[::ffff:a9fe:a9fe]', 'cloud metadata'],
    ['https://[ff02::1]/h', '[ff02::1]', 'multicast'],
    ['https://2130706433/h', '127.0.0.1', 'loopback'], // the URL parser reads it as 127.0.0.1
  ] as const)('refuses %s', async (url, host, kind) => {
    await refused(body({ url }), 'body.url', WEBHOOK_MESSAGES.blockedAddress(host, kind));
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    const [first] = await lookup('localhost', { all: true, verbatim: true });
    const res = await refused(
      body({ url: 'https://localhost/h' }),
      'body.url',
      WEBHOOK_MESSAGES.blockedName('localhost', first!.address, 'loopback'),
    );
    expect(res.json().error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it('refuses a host name that does not resolve', async () => {
    await refused(
      body({ url: 'https://no-such-host.invalid/h' }),
      'body.url',
      WEBHOOK_MESSAGES.unresolved('no-such-host.invalid'),
    );
  });

  it('takes loopback and private addresses with WEBHOOK_ALLOW_PRIVATE=true, and http to loopback', async () => {
    for (const url of ['https://10.0.0.1/h', 'https://[::1]/h', 'http://127.0.0.1:8080/h', 'http://localhost:8080/h']) {
      const res = await openApi.post('/v2/webhooks', openCookie, body({ url }));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
  });
});
