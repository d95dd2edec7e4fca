import { SOCKET_MAX_MESSAGE_BYTES } from '@tessera/common/constants';
import { SOCKET_CLOSE } from '@tessera/common/socket';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageViews } from '../db/schema';
import { createSessionService } from '../features/sessions/service';
import { findUserById } from '../features/users/repo';
import { buildTestApp, CONSOLE_HEADERS, makeOrganization, makeUser, signIn, type TestApp } from '../test/harness';
import { isPush, isReply, openSocket } from '../test/socket-client';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.app.close());

describe('socket handshake', () => {
  it('sends the server version and a new journey id on connect', async () => {
    const s = await openSocket(base);
    expect(await s.next(isPush('version'))).toEqual(['push', { version: 'test-1' }]);
    const journey = (await s.next(isPush('journeyId')))[1] as { journeyId: string };
    expect(journey.journeyId).toMatch(/^[0-9a-f-]{36}$/);
    s.ws.close();
  });

  it('keeps a journey id the browser already has', async () => {
    const journeyId = '5b7f3c1e-8a4d-4e2b-9c6f-1d2e3f4a5b6c';
    const s = await openSocket(base, {
      query: `url=${encodeURIComponent('http://localhost:3000/')}&journeyId=${journeyId}`,
    });
    await s.next(isPush('version'));
    s.send(['hit', { index: 0, url: 'http://localhost:3000/usage' }]);
    await expect
      .poll(async () => {
        const rows = await t.database.db.select().from(pageViews).where(eq(pageViews.journeyId, journeyId));
        return rows.length;
      })
      .toBe(1);
    expect(s.messages.some(isPush('journeyId'))).toBe(false);
    s.ws.close();
  });

  it('refuses a foreign Origin with 403', async () => {
    await expect(openSocket(base, { origin: 'https://evil.example' })).rejects.toThrow('handshake refused: 403');
  });

  it('refuses a handshake without the url parameter with 400', async () => {
    await expect(openSocket(base, { query: '' })).rejects.toThrow('handshake refused: 400');
  });
});

describe('socket messages', () => {
  it('stores a hit as a page view, without query values or fragment', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const s = await openSocket(base, { cookie });
    await s.next(isPush('version'));
    s.send(['hit', { index: 3, url: 'http://localhost:3000/playground?email=jane%40x.example#result' }]);
    await expect
      .poll(async () => {
        const [row] = await t.database.db
          .select()
          .from(pageViews)
          .where(eq(pageViews.userId, user.id))
          .orderBy(desc(pageViews.id))
          .limit(1);
        return row && { url: row.url, hitIndex: row.hitIndex };
      })
      .toEqual({ url: '/playground?email=[redacted]', hitIndex: 3 });
    s.ws.close();
  });

  it('refuses malformed messages without closing', async () => {
    const s = await openSocket(base);
    s.send('not json');
    expect(await s.next(isReply('refused'))).toEqual([
      'refused',
      { message: 'A message must be a JSON array [name, payload].' },
    ]);
    s.send(['dance', {}]);
    expect((await s.next(isReply('refused')))[1]).toEqual({ message: 'Unknown message or invalid payload.' });
    s.send(['hit', { index: -1, url: 'http://localhost:3000/' }]);
    await s.next(isReply('refused'));
    s.send(['hit', { index: 1, url: 'javascript:alert(1)' }]);
    expect((await s.next(isReply('refused')))[1]).toEqual({ message: 'hit needs an absolute http(s) URL.' });
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    s.ws.close();
  });

  it('closes the connection on a message over 64 KB', async () => {
    const s = await openSocket(base);
    s.send(['clientError', 'x'.repeat(SOCKET_MAX_MESSAGE_BYTES)]);
    expect((await s.closed).code).toBe(SOCKET_CLOSE.tooBig);
  });

  it('closes the connection on a flood', async () => {
    const s = await openSocket(base);
    for (let i = 0; i < 200; i++) s.send(['clear', null]);
    expect(await s.closed).toEqual({ code: SOCKET_CLOSE.policy, reason: 'Too many messages' });
  });

  it('logs a client error with query strings removed', async () => {
    const s = await openSocket(base);
    s.send([
      'clientError',
      'TypeError: x is undefined\n at http://localhost:3000/assets/a.js?email=jane@x.example:1:2',
    ]);
    await expect.poll(() => t.logs.some((l) => l.includes('client error'))).toBe(true);
    const line = t.logs.find((l) => l.includes('client error'))!;
    expect(line).toContain('TypeError: x is undefined');
    expect(line).not.toContain('jane@x.example');
    s.ws.close();
  });

  it('closes with 1001 on beforeunload', async () => {
    const s = await openSocket(base);
    s.send(['beforeunload', null]);
    expect((await s.closed).code).toBe(SOCKET_CLOSE.goingAway);
  });
});

describe('channels', () => {
  it('lets a user subscribe to their own self channel only', async () => {
    const org = await makeOrganization(t.database);
    const user = await makeUser(t.database, 'user', org.id);
    const s = await openSocket(base, { cookie: await signIn(t.app, user.email) });
    s.send(['subscribe', `self:${user.id}`]);
    expect(await s.next(isReply('subscribed'))).toEqual(['subscribed', `self:${user.id}`]);
    s.send(['subscribe', `self:${user.id + 1}`]);
    expect(await s.next(isReply('refused', `self:${user.id + 1}`))).toBeTruthy();
    s.send(['subscribe', `organization:${org.id}`]);
    expect(await s.next(isReply('subscribed', `organization:${org.id}`))).toBeTruthy();
    s.send(['subscribe', `organization:${org.id + 1000}`]);
    expect(await s.next(isReply('refused', `organization:${org.id + 1000}`))).toBeTruthy();
    s.send(['subscribe', 'system:releases']);
    expect(await s.next(isReply('refused', 'system:releases'))).toBeTruthy();
    s.ws.close();
  });

  it('lets super+ listen to any organization and system channels', async () => {
    const other = await makeOrganization(t.database);
    const admin = await makeUser(t.database, 'super');
    const s = await openSocket(base, { cookie: await signIn(t.app, admin.email) });
    s.send(['subscribe', `organization:${other.id}`]);
    await s.next(isReply('subscribed', `organization:${other.id}`));
    s.send(['subscribe', 'system:releases']);
    await s.next(isReply('subscribed', 'system:releases'));
    s.ws.close();
  });

  it('refuses every channel to an anonymous socket', async () => {
    const s = await openSocket(base);
    s.send(['subscribe', 'self:0']);
    await s.next(isReply('refused', 'self:0'));
    s.send(['subscribe', 'organization:1']);
    await s.next(isReply('refused', 'organization:1'));
    s.ws.close();
  });

  it('pushes keyed objects to subscribers until they unsubscribe or clear', async () => {
    const user = await makeUser(t.database);
    const s = await openSocket(base, { cookie: await signIn(t.app, user.email) });
    const channel = `self:${user.id}`;
    s.send(['subscribe', channel]);
    await s.next(isReply('subscribed'));
    await t.app.hub.publish(channel, { keys: { 7: { id: 7, name: 'ci' } } });
    expect(await s.next(isPush('keys'))).toEqual(['push', { keys: { 7: { id: 7, name: 'ci' } } }]);
    s.send(['clear', null]);
    s.send(['subscribe', 'self:999999999']); // a refusal marks that the clear was handled
    await s.next(isReply('refused'));
    await t.app.hub.publish(channel, { keys: { 8: { id: 8 } } });
    s.send(['subscribe', 'self:999999998']);
    await s.next(isReply('refused'));
    expect(s.messages.some(isPush('keys'))).toBe(false);
    s.ws.close();
  });

  it('signs out and closes every socket of a session that logs out', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const tabs = [await openSocket(base, { cookie }), await openSocket(base, { cookie })];
    const bystander = await openSocket(base, { cookie: await signIn(t.app, user.email) });
    await t.app.inject({ method: 'PUT', url: '/auth/logout', headers: { ...CONSOLE_HEADERS, cookie } });
    for (const tab of tabs) {
      expect((await tab.next(isPush('self')))[1]).toMatchObject({ self: { id: 0, role: 'anonymous' } });
      expect((await tab.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    }
    expect(bystander.ws.readyState).toBe(bystander.ws.OPEN);
    bystander.ws.close();
  });

  it('signs out and closes a socket when its session expires', async () => {
    const user = await makeUser(t.database);
    const found = await findUserById(t.database.db, user.id);
    const sessions = createSessionService(t.database);
    const started = await sessions.start({
      user: found!.user,
      organizationName: null,
      remember: false,
      ip: '127.0.0.1',
      userAgent: 'test',
      lifetimeMs: 1500,
    });
    const tab = await openSocket(base, { cookie: `tessera_session=${started.token}` });
    expect((await tab.next(isPush('self'), 10_000))[1]).toMatchObject({ self: { id: 0 } });
    expect((await tab.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
  });
});
