/** The lookup paths' wire details: methods other than GET, POST and PUT, caching, and how a 401 names its scheme. */
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { POST_MESSAGES } from './routes';
import { signedInCustomer } from './test-caller';
import { load, person } from './test-people';

let t: TestApp;
let cookie: string;
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

const usageOf = async (requestId: string) => t.database.query('select 1 from usage where request_id = $1', [requestId]);

describe('lookup methods and headers', () => {
  it.each(['HEAD', 'DELETE', 'PATCH'] as const)(
    'refuses %s with 405 and Allow, running and charging nothing',
    async (method) => {
      const p = person();
      await load(t.database, p);
      const res = await t.app.inject({
        method,
        url: `/v2/identities/byEmail?email=${p.emails[0]!.address}`,
        headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, POST, PUT, OPTIONS');
      if (method !== 'HEAD')
        expect(res.json()).toMatchObject({ code: 'method_not_allowed', error: POST_MESSAGES.method(method) });
      expect(res.body).not.toContain(p.emails[0]!.address);
      expect(await usageOf(String(res.headers['x-request-id']))).toEqual([]);
    },
  );

  it('answers OPTIONS with the methods it takes and no CORS headers (browsers may not call it cross-origin)', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/v2/identities/byEmail',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers.allow).toBe('GET, POST, PUT, OPTIONS');
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('marks replies with personal data no-store, and errors too', async () => {
    const p = person();
    await load(t.database, p);
    const found = await t.app.inject({
      url: `/v2/identities/byEmail?email=${p.emails[0]!.address}`,
      headers: { cookie },
    });
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toBe('no-store');
    const bad = await t.app.inject({ url: '/v2/identities/byEmail?email=nope', headers: { cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
    const self = await t.app.inject({ url: '/v2/users', headers: { cookie } });
    expect(self.headers['cache-control']).toBe('no-store');
  });

  it('names the Bearer scheme on a 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
      const res = await t.app.inject({ url: '/v2/identities/byId?id=1', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="tessera"');
    }
  });
});
