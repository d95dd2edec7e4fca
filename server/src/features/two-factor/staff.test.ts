/**
 * REQUIRE_2FA_FOR_STAFF (issue 32 item 9): a System Administrator or Maintainer without two-factor sign-in is sent
 * to turn it on and refused everything else until it is on; other roles, and servers without the setting, are not.
 */
import { ENROL_LOCATION, TWO_FACTOR_MESSAGES as M, TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';
import { memoryLimiter } from '../throttle/limiter';
import { enrolThroughApi, post } from './test-support';

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ limiter: memoryLimiter(), env: { REQUIRE_2FA_FOR_STAFF: 'true' } });
  plain = await buildTestApp({ database: t.database, limiter: memoryLimiter() });
});
afterAll(async () => {
  await Promise.all([t.app.close(), plain.app.close()]);
});

const login = (app: TestApp, email: string) =>
  app.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: CONSOLE_HEADERS,
    payload: { email, password: PASSWORD },
  });

const get = (app: TestApp, url: string, cookie: string) => app.app.inject({ url, headers: { cookie } });

describe('REQUIRE_2FA_FOR_STAFF', () => {
  it.each(['super', 'root'] as const)('sends a %s without it to the set-up, refusing anything else', async (role) => {
    const staff = await makeUser(t.database, role);
    const res = await login(t, staff.email);
    expect(res.json()).toEqual({ location: ENROL_LOCATION });
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const refused = await get(t, '/v2/organizations', cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(M.required);
    // What the profile's set-up needs stays open.
    expect((await get(t, '/v2/self', cookie)).statusCode).toBe(200);
    expect((await get(t, '/v2/sessions?mine=true', cookie)).statusCode).toBe(200);
    expect((await get(t, '/v2/sessions', cookie)).statusCode).toBe(403);
    expect((await get(t, TWO_FACTOR_PATHS.status, cookie)).json().twoFactor).toMatchObject({
      enabled: false,
      required: true,
    });
    await enrolThroughApi(t.app, cookie);
    expect((await get(t, '/v2/organizations', cookie)).statusCode).toBe(200);
    // Required: it cannot be turned off by its owner.
    const off = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { password: PASSWORD });
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toBe(M.requiredCannotDisable);
  });

  it('leaves other roles alone', async () => {
    const admin = await makeUser(t.database, 'admin');
    const res = await login(t, admin.email);
    expect(res.json()).toEqual({ location: '/' });
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await get(t, '/v2/organizations', cookie)).statusCode).toBe(200);
    expect((await get(t, TWO_FACTOR_PATHS.status, cookie)).json().twoFactor.required).toBe(false);
  });

  it('is off unless set', async () => {
    const staff = await makeUser(t.database, 'root');
    const cookie = await signIn(plain.app, staff.email);
    expect((await get(plain, '/v2/organizations', cookie)).statusCode).toBe(200);
    expect((await get(plain, TWO_FACTOR_PATHS.status, cookie)).json().twoFactor.required).toBe(false);
  });
});
