/** A known key is checked from memory: after its first use, a call costs no statement to verify it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp, testDatabase } from '../../test/harness';

let t: TestApp;
const statements: string[] = [];
beforeAll(async () => {
  const real = await testDatabase();
  const counted: Database = {
    ...real,
    query: (text, params, options) => {
      statements.push(text);
      return real.query(text, params, options);
    },
  };
  t = await buildTestApp({ database: counted });
});
afterAll(() => t.app.close());

describe('API key cache', () => {
  it('reads a key once, then verifies it without the database; a wrong secret is refused from memory too', async () => {
    const user = await makeCustomer(t.database);
    const api = consoleClient(() => t.app);
    const res = await api.post('/v2/keys', await signIn(t.app, user.email), { name: 'cached' });
    const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
    const call = (secret: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v2/identities/byId?id=1',
        headers: { authorization: `Bearer ${key.id}${secret}` },
      });
    statements.length = 0;
    expect((await call(key.secret)).statusCode).toBe(200);
    expect(statements.filter((s) => s.includes('from api_keys'))).toHaveLength(1);
    statements.length = 0;
    expect((await call(key.secret)).statusCode).toBe(200);
    expect((await call('x'.repeat(32))).statusCode).toBe(401);
    expect(statements.filter((s) => s.includes('api_keys'))).toEqual([]);
  });
});
