import { IDENTITY_PROVIDERS } from '@tessera/common/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

describe('GET /oauth/{provider}', () => {
  it.each(IDENTITY_PROVIDERS.map((p) => p.id))(
    'sends the browser back to /login saying %s is not set up',
    async (id) => {
      const res = await t.app.inject({ method: 'GET', url: `/oauth/${id}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`/login?failure=unconfigured&provider=${id}`);
      expect(res.cookies).toHaveLength(0);
    },
  );

  it('answers 404 JSON for an unknown provider', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/myspace' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'No such sign-in provider.', code: 'not_found' });
  });
});
