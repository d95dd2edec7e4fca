import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp, testDatabase } from '../test/harness';
import { isPush, isReply, openSocket } from '../test/socket-client';
import { type FanoutMessage, memoryFanout, redisFanout } from './fanout';
import { deploymentNamespace, type RedisPlace } from './redis-namespace';

describe('memory fan-out', () => {
  it('delivers a copy on a later tick', async () => {
    const fanout = memoryFanout();
    const got: FanoutMessage[] = [];
    fanout.onMessage((m) => got.push(m));
    const message: FanoutMessage = { kind: 'push', channel: 'self:1', payload: { a: 1 } };
    const published = fanout.publish(message);
    expect(got).toHaveLength(0);
    await published;
    await Promise.resolve();
    expect(got).toEqual([message]);
    expect(got[0]).not.toBe(message);
  });
});

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('Redis fan-out between two server processes', () => {
  let a: TestApp;
  let b: TestApp;
  let baseB: string;
  beforeAll(async () => {
    // Two processes of one deployment: the worker's database names their namespace.
    const place: RedisPlace = { url: redisUrl!, namespace: await deploymentNamespace(await testDatabase()) };
    a = await buildTestApp({ fanout: await redisFanout(place) });
    b = await buildTestApp({ fanout: await redisFanout(place) });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all([a.app.close(), b.app.close()]);
    await Promise.all([a.fanout.close(), b.fanout.close()]);
  });

  it('a push published on one process reaches a socket on the other, once', async () => {
    const user = await makeUser(a.database);
    const s = await openSocket(baseB, { cookie: await signIn(b.app, user.email) });
    s.send(['subscribe', `self:${user.id}`]);
    await s.next(isReply('subscribed'));
    await a.app.hub.publish(`self:${user.id}`, { self: { id: user.id, name: 'From A' } });
    expect(await s.next(isPush('self'))).toEqual(['push', { self: { id: user.id, name: 'From A' } }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.messages.filter(isPush('self'))).toHaveLength(0);
    s.ws.close();
  });

  it('a logout on one process signs out the session’s sockets on the other', async () => {
    const user = await makeUser(a.database);
    const cookie = await signIn(a.app, user.email);
    const s = await openSocket(baseB, { cookie });
    await s.next(isPush('version'));
    await a.app.inject({ method: 'PUT', url: '/auth/logout', headers: { ...CONSOLE_HEADERS, cookie } });
    expect((await s.next(isPush('self')))[1]).toMatchObject({ self: { id: 0 } });
    expect((await s.closed).code).toBe(4001);
  });
});
