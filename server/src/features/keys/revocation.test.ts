/** A revoked key stops working on every server process, told through Redis; no process asks the database per call. */
import { KEY_MESSAGES } from '@tessera/common/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisFanout } from '../../socket/fanout';
import { deploymentNamespace, type RedisPlace } from '../../socket/redis-namespace';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp, testDatabase } from '../../test/harness';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('API key revocation across processes (Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const place: RedisPlace = { url: redisUrl!, namespace: await deploymentNamespace(await testDatabase()) };
    a = await buildTestApp({ fanout: await redisFanout(place) });
    b = await buildTestApp({ fanout: await redisFanout(place) });
  });
  afterAll(async () => {
    await Promise.all([a.app.close(), b.app.close()]);
    await Promise.all([a.fanout.close(), b.fanout.close()]);
  });

  it('revoked on one process, refused on the other as soon as the message arrives', async () => {
    const user = await makeCustomer(a.database);
    const cookie = await signIn(a.app, user.email);
    const api = consoleClient(() => a.app);
    const created = await api.post('/v2/keys', cookie, { name: 'shared' });
    const key = Object.values(created.json().keys)[0] as { id: string; secret: string };
    const call = () =>
      b.app.inject({
        method: 'GET',
        url: '/v2/identities/byId?id=1',
        headers: { authorization: `Bearer ${key.id}${key.secret}` },
      });
    expect((await call()).statusCode).toBe(200); // B has it cached now

    const told = new Promise<void>((resolve) =>
      b.fanout.onMessage((m) => {
        if (m.kind === 'keyChanged' && m.keyId === key.id) resolve();
      }),
    );
    expect((await api.del(`/v2/keys/${key.id}`, cookie)).statusCode).toBe(200);
    await told;
    const refused = await call();
    expect([refused.statusCode, refused.json().error]).toEqual([401, KEY_MESSAGES.unknown]);
  });
});
