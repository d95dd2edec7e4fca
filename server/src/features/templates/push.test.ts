/**
 * Template pushes follow the REST list: its organization's members, the users and organizations its adminIds name,
 * and super+ on the system templates channel hear of a change; another organization hears nothing.
 */
import type { ServerMessage } from '@tessera/common/socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket } from '../../test/socket-client';
import { TEMPLATES_CHANNEL } from './routes';

let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.app.close());

type Templates = Record<string, Record<string, unknown>>;
const templatePush = (id: number, test: (x: Record<string, unknown>) => boolean) => (m: ServerMessage) =>
  m[0] === 'push' &&
  'templates' in m[1] &&
  String(id) in (m[1].templates as Templates) &&
  test((m[1].templates as Templates)[id]!);

async function listener(role: 'user' | 'admin' | 'super', organizationId: number | null, channel?: string) {
  const u = await makeUser(t.database, role, organizationId);
  const cookie = await signIn(t.app, u.email);
  const s = await openSocket(base, { cookie });
  for (const c of [
    `self:${u.id}`,
    channel ?? (organizationId ? `organization:${organizationId}` : TEMPLATES_CHANNEL),
  ]) {
    s.send(['subscribe', c]);
    await s.next(isReply('subscribed', c));
  }
  return { ...u, cookie, s };
}

describe('template pushes', () => {
  it('reach members, grantees by id and by organization, and super+; never another organization', async () => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => makeOrganization(t.database)));
    const editor = await listener('admin', a!.id);
    const member = await listener('user', a!.id);
    const byId = await listener('user', b!.id);
    const byOrganization = await listener('user', c!.id);
    const stranger = await listener('admin', d!.id);
    const staff = await listener('super', null);
    const made = await api.post('/v2/templates', staff.cookie, {
      name: 'Shared',
      expression: '{"id": id}',
      organizationId: a!.id,
      adminIds: [editor.id, byId.id, c!.id],
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = Number(Object.keys(made.json().templates)[0]);
    const hearing = [editor.s, member.s, byId.s, byOrganization.s, staff.s];
    for (const s of hearing) await s.next(templatePush(id, (x) => x.name === 'Shared'));
    expect((await api.del(`/v2/templates/${id}`, editor.cookie)).statusCode).toBe(200);
    for (const s of hearing) await s.next(templatePush(id, (x) => typeof x.deletedAt === 'string'));
    await t.app.hub.publish(`organization:${d!.id}`, { marker: true });
    await stranger.s.next(isPush('marker'));
    expect(stranger.s.messages.filter(isPush('templates'))).toEqual([]);
    for (const s of [...hearing, stranger.s]) s.ws.close();
  });
});
