import { ANONYMOUS_USER, USER_COOKIE } from '@tessera/common/entities';
import { afterEach, describe, expect, it } from 'vitest';
import { setNavigator } from './navigator';
import { logout, readUserCookie, refreshUser, sessionEndedByServer, signedOutByChoice } from './session';
import { useStore } from './store';

const user = (expires: number) => ({
  id: 7,
  email: 'ada@acme.test',
  name: 'Ada',
  role: 'admin',
  organizationId: 3,
  organizationName: 'Acme',
  isActive: true,
  title: 'CTO',
  image: '',
  allowedRecordTypes: ['person'],
  expires,
});
const cookie = (value: unknown) => `other=1; ${USER_COOKIE}=${encodeURIComponent(JSON.stringify(value))}; last=2`;

function setCookie(value: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server's part of writing the cookie
  document.cookie = value;
}

afterEach(() => {
  setCookie(`${USER_COOKIE}=; Path=/; Max-Age=0`);
  useStore.setState({ self: ANONYMOUS_USER, alerts: [], carriedAlerts: [] });
});

describe('the readable user cookie (spec §4)', () => {
  it('gives the signed-in user until it expires', () => {
    const later = Date.now() + 60_000;
    expect(readUserCookie(cookie(user(later)))).toEqual(user(later));
    expect(readUserCookie(cookie(user(Date.now() - 1)))).toEqual(ANONYMOUS_USER);
  });

  it('gives the anonymous user for a missing, garbled or ill-shaped cookie', () => {
    expect(readUserCookie('other=1')).toEqual(ANONYMOUS_USER);
    expect(readUserCookie(`${USER_COOKIE}=%7Bnot json`)).toEqual(ANONYMOUS_USER);
    expect(readUserCookie(cookie({ ...user(Date.now() + 1000), role: 'emperor' }))).toEqual(ANONYMOUS_USER);
    expect(readUserCookie(cookie({ ...user(Date.now() + 1000), id: '7' }))).toEqual(ANONYMOUS_USER);
  });

  it('puts the cookie user into the store', () => {
    setCookie(`${USER_COOKIE}=${encodeURIComponent(JSON.stringify(user(Date.now() + 60_000)))}; Path=/`);
    expect(refreshUser().id).toBe(7);
    expect(useStore.getState().self.email).toBe('ada@acme.test');
  });
});

describe('a session the server ended', () => {
  it('clears the user, goes to /login and says so on the next page', () => {
    const went: string[] = [];
    setNavigator((to) => went.push(to));
    setCookie(`${USER_COOKIE}=${encodeURIComponent(JSON.stringify(user(Date.now() + 60_000)))}; Path=/`);
    refreshUser();
    sessionEndedByServer();
    expect(useStore.getState().self).toEqual(ANONYMOUS_USER);
    expect(readUserCookie()).toEqual(ANONYMOUS_USER);
    expect(went).toEqual(['/login']);
    expect(useStore.getState().carriedAlerts.map((a) => a.title)).toEqual(['Signed Out']);
  });

  it('means nothing to an anonymous visitor', () => {
    const went: string[] = [];
    setNavigator((to) => went.push(to));
    sessionEndedByServer();
    expect(went).toEqual([]);
    expect(useStore.getState().alerts).toEqual([]);
  });
});

describe('signing out on purpose', () => {
  it('goes to /login before the user is cleared, and is remembered until someone signs in again', async () => {
    const seen: { to: string; selfId: number }[] = [];
    setNavigator((to) => seen.push({ to, selfId: useStore.getState().self.id }));
    const calls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(`${init?.method} ${String(input)}`);
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    try {
      setCookie(`${USER_COOKIE}=${encodeURIComponent(JSON.stringify(user(Date.now() + 60_000)))}; Path=/`);
      refreshUser();
      expect(signedOutByChoice()).toBe(false);
      await logout();
      expect(seen).toEqual([{ to: '/login', selfId: 7 }]);
      expect(useStore.getState().self).toEqual(ANONYMOUS_USER);
      expect(calls).toEqual(['PUT /auth/logout']);
      expect(signedOutByChoice()).toBe(true);
      setCookie(`${USER_COOKIE}=${encodeURIComponent(JSON.stringify(user(Date.now() + 60_000)))}; Path=/`);
      refreshUser();
      expect(signedOutByChoice()).toBe(false);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
