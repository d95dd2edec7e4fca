/**
 * Key pushes follow the REST rule (canManageKey), checked per recipient (issue 12, item 11): a key's owner, its
 * organization's administrators and super+ hear of it being made, changed, rotated and revoked; a plain member of
 * the organization, listening on the same organization channel, hears nothing of it (and gets 404 by REST). Over
 * Redis too, where the rule travels as data with the push and is checked by the receiving process.
 */
import { randomUUID } from 'node:crypto';
import type { ServerMessage } from '@tessera/common/socket';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fanout, memoryFanout, redisFanout } from '../../socket/fanout';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket, type TestSocket } from '../../test/socket-client';

const redisUrl = process.env.REDIS_URL;

/** Where the REST calls go and where the sockets listen: one process, or two joined by Redis. */
const setups: { name: string; skip: boolean; fanouts: () => Promise<Fanout[]> }[] = [
  { name: 'in one process', skip: false, fanouts: async () => [memoryFanout()] },
  {
    name: 'across processes (Redis)',
    skip: !redisUrl,
    fanouts: async () => {
      const place = { url: redisUrl!, namespace: `test-keys-${randomUUID()}` };
      return [await redisFanout(place), await redisFanout(place)];
    },
  },
];

type Keys = Record<string, Record<string, unknown>>;
const keyPush = (id: string, test: (key: Record<string, unknown>) => boolean) => (m: ServerMessage) =>
  m[0] === 'push' && 'keys' in m[1] && id in (m[1].keys as Keys) && test((m[1].keys as Keys)[id]!);

for (const setup of setups) {
  describe.skipIf(setup.skip)(`key pushes ${setup.name}`, () => {
    const apps: TestApp[] = [];
    let rest: FastifyInstance;
    let base: string;
    beforeAll(async () => {
      for (const fanout of await setup.fanouts()) apps.push(await buildTestApp({ fanout }));
      rest = apps[0]!.app;
      base = await apps.at(-1)!.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      for (const t of apps) await t.app.close();
      for (const t of apps) await t.fanout.close();
    });

    /** A socket of `role` listening on its self channel and on `channel`, as the console does. */
    async function listener(role: 'user' | 'admin' | 'super', organizationId: number | null, channel: string) {
      const u = await makeUser(apps[0]!.database, role, organizationId);
      const cookie = await signIn(rest, u.email);
      const s = await openSocket(base, { cookie });
      for (const c of [`self:${u.id}`, channel]) {
        s.send(['subscribe', c]);
        await s.next(isReply('subscribed', c));
      }
      return { ...u, cookie, s };
    }

    it('reach the owner, an administrator and a super user; never a plain member of the organization', async () => {
      const org = (await makeOrganization(apps[0]!.database)).id;
      const channel = `organization:${org}`;
      const owner = await listener('user', org, channel);
      const colleague = await listener('user', org, channel);
      const admin = await listener('admin', org, channel);
      const staff = await listener('super', null, channel);
      const entitled: TestSocket[] = [owner.s, admin.s, staff.s];
      const api = consoleClient(() => rest);

      const created = await api.post('/v2/keys', owner.cookie, { name: 'Mine', ipAllowlist: ['10.0.0.0/8'] });
      expect(created.statusCode, created.body).toBe(201);
      const { id, secret } = Object.values(created.json().keys as Keys)[0] as { id: string; secret: string };
      for (const s of entitled) await s.next(keyPush(id, (k) => k.name === 'Mine'));

      expect((await api.put(`/v2/keys/${id}`, admin.cookie, { name: 'Renamed' })).statusCode).toBe(200);
      for (const s of entitled) await s.next(keyPush(id, (k) => k.name === 'Renamed'));

      const rotated = await api.post(`/v2/keys/${id}/rotate`, owner.cookie, { graceSeconds: 0 });
      expect(rotated.statusCode).toBe(200);
      const lastFour = (rotated.json().keys as Keys)[id]!.lastFour;
      for (const s of entitled) await s.next(keyPush(id, (k) => k.lastFour === lastFour));

      expect((await api.del(`/v2/keys/${id}`, staff.cookie)).statusCode).toBe(200);
      for (const s of entitled) await s.next(keyPush(id, (k) => typeof k.deletedAt === 'string'));

      // The colleague hears what the organization channel carries for everyone, in order: a marker published
      // after the four key pushes arrives after any of them would have.
      await apps[0]!.app.hub.publish(channel, { marker: true });
      await colleague.s.next(isPush('marker'));
      expect(colleague.s.messages.filter(isPush('keys'))).toEqual([]);
      expect((await api.get(`/v2/keys/${id}`, colleague.cookie)).statusCode).toBe(404);

      for (const s of [...entitled, colleague.s]) {
        expect(JSON.stringify(s.messages)).not.toContain(secret);
        s.ws.close();
      }
    });

    it('stop at a socket whose session now acts as a plain member (impersonation moves it down)', async () => {
      const org = (await makeOrganization(apps[0]!.database)).id;
      const channel = `organization:${org}`;
      const admin = await listener('admin', org, channel);
      const plain = await makeUser(apps[0]!.database, 'user', org);
      const [session] = await apps[0]!.database.query<{ id: string }>(
        'select id from sessions where user_id = $1 and revoked_at is null',
        [admin.id],
      );
      const self = (await consoleClient(() => rest).get('/v2/self', admin.cookie)).json().self;
      await apps[0]!.app.hub.rotateSession(Number(session!.id), Number(session!.id), {
        ...self,
        id: plain.id,
        role: 'user',
      });
      await admin.s.next(isPush('self'));
      await apps[0]!.app.hub.publish(channel, { keys: { x: { id: 'x' } } }, { minRank: 'admin' });
      await apps[0]!.app.hub.publish(channel, { marker: true });
      await admin.s.next(isPush('marker'));
      expect(admin.s.messages.filter(isPush('keys'))).toEqual([]);
      admin.s.ws.close();
    });
  });
}
