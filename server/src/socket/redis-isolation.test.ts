/**
 * Two deployments on one Redis (issue 12, item 8): with different namespaces neither sees the other's pushes,
 * session moves and ends, throttle counts, rate-limit windows or cache drops; with the same one they share them.
 * All three apps here use one database on purpose, so the ids (sessions, users) collide as they would between
 * two real deployments' databases: only the namespace keeps them apart.
 *
 * Proving that something did not arrive without waiting: Redis hands a subscriber messages in the order it
 * accepted them, so a marker published in the other deployment after the first publish has returned arrives after
 * anything the first publish could have sent there.
 */
import { randomUUID } from 'node:crypto';
import type { User } from '@tessera/common/entities';
import { SOCKET_CLOSE } from '@tessera/common/socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Limiter, redisLimiter } from '../features/throttle/limiter';
import { redisSlidingLimiter, type SlidingLimiter } from '../features/throttle/sliding';
import { buildTestApp, CONSOLE_HEADERS, makeOrganization, makeUser, signIn, type TestApp } from '../test/harness';
import { isPush, isReply, openSocket, type TestSocket } from '../test/socket-client';
import { type FanoutMessage, redisFanout } from './fanout';
import type { RedisPlace } from './redis-namespace';

const redisUrl = process.env.REDIS_URL;
const HOUR = 3600_000;

interface Deployment extends TestApp {
  limiter: Limiter;
  rates: SlidingLimiter;
  base: string;
}

async function deploy(place: RedisPlace): Promise<Deployment> {
  const limiter = await redisLimiter(place);
  const rates = await redisSlidingLimiter(place);
  const t = await buildTestApp({ fanout: await redisFanout(place), limiter, rates });
  return { ...t, limiter, rates, base: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe.skipIf(!redisUrl)('two deployments sharing one Redis', () => {
  const blue: RedisPlace = { url: redisUrl!, namespace: `test-blue-${randomUUID()}` };
  const green: RedisPlace = { url: redisUrl!, namespace: `test-green-${randomUUID()}` };
  /** Two processes of the blue deployment, and one of the green. */
  let blue1: Deployment;
  let blue2: Deployment;
  let green1: Deployment;

  beforeAll(async () => {
    [blue1, blue2, green1] = await Promise.all([deploy(blue), deploy(blue), deploy(green)]);
  });
  afterAll(async () => {
    for (const d of [blue1, blue2, green1]) {
      await d.app.close();
      await Promise.all([d.fanout.close(), d.limiter.close(), d.rates.close()]);
    }
  });

  /** A signed-in user with one session, and that session's socket on a blue and on the green process. */
  async function signedInTwice() {
    const org = await makeOrganization(blue1.database);
    const member = await makeUser(blue1.database, 'user', org.id);
    const cookie = await signIn(blue1.app, member.email);
    const self = await blue1.app.inject({ method: 'GET', url: '/v2/self', headers: { ...CONSOLE_HEADERS, cookie } });
    const [session] = await blue1.database.query<{ id: string }>(
      'select id from sessions where user_id = $1 and revoked_at is null',
      [member.id],
    );
    const sockets: TestSocket[] = [];
    for (const d of [blue2, green1]) {
      const s = await openSocket(d.base, { cookie });
      s.send(['subscribe', `self:${member.id}`]);
      await s.next(isReply('subscribed'));
      sockets.push(s);
    }
    const [onBlue, onGreen] = sockets as [TestSocket, TestSocket];
    return { member, self: (self.json() as { self: User }).self, sessionId: Number(session!.id), onBlue, onGreen };
  }

  /** Publishes a marker in the green deployment and waits for it: anything blue leaked would be in front of it. */
  async function settleGreen(s: TestSocket, userId: number): Promise<void> {
    await green1.app.hub.publish(`self:${userId}`, { marker: true });
    await s.next(isPush('marker'));
  }

  it('a push reaches the same deployment’s other process, never the other deployment', async () => {
    const { member, onBlue, onGreen } = await signedInTwice();
    await blue1.app.hub.publish(`self:${member.id}`, { self: { id: member.id, name: 'Blue' } });
    expect(await onBlue.next(isPush('self'))).toEqual(['push', { self: { id: member.id, name: 'Blue' } }]);
    await settleGreen(onGreen, member.id);
    expect(onGreen.messages.filter(isPush('self'))).toEqual([]);
    onBlue.ws.close();
    onGreen.ws.close();
  });

  it('rotateSession moves the session’s sockets in its own deployment only (no foreign root)', async () => {
    const { member, self, sessionId, onBlue, onGreen } = await signedInTwice();
    await blue1.app.hub.rotateSession(sessionId, sessionId + 1, { ...self, role: 'root' });
    expect((await onBlue.next(isPush('self')))[1]).toMatchObject({ self: { id: member.id, role: 'root' } });
    onBlue.send(['subscribe', 'system:releases']);
    await onBlue.next(isReply('subscribed', 'system:releases'));

    await settleGreen(onGreen, member.id);
    expect(onGreen.messages.filter(isPush('self'))).toEqual([]);
    onGreen.send(['subscribe', 'system:releases']);
    await onGreen.next(isReply('refused', 'system:releases'));
    onBlue.ws.close();
    onGreen.ws.close();
  });

  it('endSession closes the session’s sockets in its own deployment only', async () => {
    const { member, sessionId, onBlue, onGreen } = await signedInTwice();
    await blue1.app.hub.endSession(sessionId);
    expect((await onBlue.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    await settleGreen(onGreen, member.id);
    expect(onGreen.messages.filter(isPush('self'))).toEqual([]);
    expect(onGreen.ws.readyState).toBe(onGreen.ws.OPEN);
    onGreen.ws.close();
  });

  it('keeps throttle counts apart', async () => {
    const key = `login:${randomUUID()}`;
    for (let i = 0; i < 3; i++) await blue1.limiter.hit(key, HOUR);
    expect((await blue2.limiter.peek(key)).count).toBe(3);
    expect((await green1.limiter.peek(key)).count).toBe(0);
    expect((await green1.limiter.hit(key, HOUR)).count).toBe(1);
    await blue2.limiter.reset(key);
    expect((await blue1.limiter.peek(key)).count).toBe(0);
    expect((await green1.limiter.peek(key)).count).toBe(1);
  });

  it('keeps rate-limit windows apart', async () => {
    const key = `key:${randomUUID()}`;
    expect((await blue1.rates.hit(key, 2, HOUR)).allowed).toBe(true);
    expect((await blue1.rates.hit(key, 2, HOUR)).allowed).toBe(true);
    expect((await blue2.rates.hit(key, 2, HOUR)).allowed).toBe(false);
    expect(await green1.rates.hit(key, 2, HOUR)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps key, user and contract changes (and every other fan-out message) apart', async () => {
    const id = randomUUID();
    const sent: FanoutMessage[] = [
      { kind: 'keyChanged', keyId: `k-${id}` },
      { kind: 'userChanged', userId: 1 },
      { kind: 'contractChanged', organizationId: 1 },
      { kind: 'push', channel: 'organization:1', payload: { keys: {} }, minRank: 'admin' },
      { kind: 'endSession', sessionId: 1 },
    ];
    const toBlue: FanoutMessage[] = [];
    const toGreen: FanoutMessage[] = [];
    const blueGotAll = new Promise<void>((resolve) =>
      blue2.fanout.onMessage((m) => {
        if (JSON.stringify(m).includes(id) || toBlue.length > 0) toBlue.push(m);
        if (toBlue.length === sent.length) resolve();
      }),
    );
    const marker: FanoutMessage = { kind: 'keyChanged', keyId: `marker-${id}` };
    const greenGotMarker = new Promise<void>((resolve) =>
      green1.fanout.onMessage((m) => {
        toGreen.push(m);
        if (m.kind === 'keyChanged' && m.keyId === marker.keyId) resolve();
      }),
    );
    for (const m of sent) await blue1.fanout.publish(m);
    await green1.fanout.publish(marker);
    await Promise.all([blueGotAll, greenGotMarker]);
    expect(toBlue).toEqual(sent);
    expect(toGreen).toEqual([marker]);
  });
});
