/**
 * The code step of sign-in (issue 32 item 9): after the password, a code from the app or a recovery code; every
 * way it can fail, the lockout it shares with the password, and outside sign-in held to the same step.
 */
import { TWO_FACTOR_MESSAGES as M, TWO_FACTOR_PATHS, TWO_FACTOR_RULES } from '@tessera/common/two-factor';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, twoFactorChallenges } from '../../db/schema';
import { buildTestApp, CONSOLE_HEADERS, makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';
import { memoryLimiter } from '../throttle/limiter';
import { TOO_MANY } from '../throttle/rules';
import { awayFromStepEdge, codeFor, enrolThroughApi } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ limiter: memoryLimiter() });
});
afterAll(() => t.app.close());

let ip = 0;

/** A user with two-factor sign-in on. */
async function enrolled() {
  const user = await makeUser(t.database, 'user');
  const cookie = await signIn(t.app, user.email);
  return { user, ...(await enrolThroughApi(t.app, cookie)) };
}

/** The password step; returns the challenge cookie it set. */
async function password(email: string, from: string, extra: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: CONSOLE_HEADERS,
    payload: { email, password: PASSWORD, ...extra },
    remoteAddress: from,
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ location: '/login', twoFactor: true });
  // No session yet: only the pending sign-in's cookie, HttpOnly and sent only to the code step.
  expect(res.cookies.map((c) => c.name)).toEqual(['tessera_2fa']);
  const challenge = res.cookies[0]!;
  expect(challenge).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: TWO_FACTOR_PATHS.signIn });
  return `tessera_2fa=${challenge.value}`;
}

const codeStep = (cookie: string, code: string, from: string) =>
  t.app.inject({
    method: 'POST',
    url: TWO_FACTOR_PATHS.signIn,
    headers: { ...CONSOLE_HEADERS, cookie },
    payload: { code },
    remoteAddress: from,
  });

function expectCodeError(res: Awaited<ReturnType<typeof codeStep>>, message: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: message, fields: [{ path: 'body.code', message }] });
  expect(res.cookies.find((c) => c.name === 'tessera_session')).toBeUndefined();
}

describe('sign-in with two-factor on', () => {
  it('asks for the code after the password and signs in with it, to where the visitor was going', async () => {
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    await awayFromStepEdge();
    const cookie = await password(user.email, from, { returnTo: '/usage', remember: 'true' });
    const res = await codeStep(cookie, await codeFor(secret), from);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ location: '/usage' });
    const session = res.cookies.find((c) => c.name === 'tessera_session')!;
    expect(session.maxAge).toBeGreaterThan(0); // "Remember me" carried over the code step
    expect(res.cookies.find((c) => c.name === 'tessera_2fa')?.value).toBe('');
    const self = await t.app.inject({ url: '/v2/self', headers: { cookie: `tessera_session=${session.value}` } });
    expect(self.json().self.id).toBe(user.id);
    // The pending sign-in is used up: the same cookie again finds nothing.
    const again = await codeStep(cookie, await codeFor(secret, 1), from);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(M.expired);
    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, user.id), eq(auditLog.action, 'login.success')))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(row!.detail).toEqual({ secondFactor: 'totp' });
  });

  it('takes a code one step either side of now (clock drift), not two', async () => {
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    await awayFromStepEdge();
    const cookie = await password(user.email, from);
    expectCodeError(await codeStep(cookie, await codeFor(secret, -2), from), M.wrongCode);
    expectCodeError(await codeStep(cookie, await codeFor(secret, 2), from), M.wrongCode);
    expect((await codeStep(cookie, await codeFor(secret, 1), from)).statusCode).toBe(200);
  });

  it('refuses a wrong code, and a code already used (replay), even in a new sign-in', async () => {
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    await awayFromStepEdge();
    const code = await codeFor(secret);
    const first = await password(user.email, from);
    const wrong = code === '000000' ? '111111' : '000000';
    expectCodeError(await codeStep(first, wrong, from), M.wrongCode);
    expect((await codeStep(first, code, from)).statusCode).toBe(200);
    const second = await password(user.email, from);
    expectCodeError(await codeStep(second, code, from), M.reusedCode);
    // An older step than the one used is a replay too (enrolment confirmed with the previous step's code).
    expectCodeError(await codeStep(second, await codeFor(secret, -1), from), M.reusedCode);
    expect((await codeStep(second, await codeFor(secret, 1), from)).statusCode).toBe(200);
  });

  it('refuses a code that is neither six digits nor a recovery code, naming both', async () => {
    const { user } = await enrolled();
    const from = `10.7.0.${++ip}`;
    const cookie = await password(user.email, from);
    expectCodeError(await codeStep(cookie, '12345', from), M.codeShape);
    const empty = await codeStep(cookie, '  ', from);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual([{ path: 'body.code', message: M.codeMissing }]);
  });

  it('says the sign-in expired without a cookie, with a made-up one, or after five minutes', async () => {
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    for (const cookie of ['', `tessera_2fa=${'x'.repeat(43)}`]) {
      const res = await codeStep(cookie, await codeFor(secret), from);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(M.expired);
    }
    const cookie = await password(user.email, from);
    await t.database.db
      .update(twoFactorChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(twoFactorChallenges.userId, user.id));
    const late = await codeStep(cookie, await codeFor(secret), from);
    expect(late.statusCode).toBe(401);
    expect(late.json().error).toBe(M.expired);
  });

  it('drops the pending sign-in after five wrong codes: the password is asked again', async () => {
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    await awayFromStepEdge();
    const cookie = await password(user.email, from);
    for (let i = 0; i < TWO_FACTOR_RULES.pendingFailures; i++) {
      expectCodeError(await codeStep(cookie, (await codeFor(secret, 5)) as string, from), M.wrongCode);
    }
    const res = await codeStep(cookie, await codeFor(secret), from);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(M.expired);
  });

  it('accepts each recovery code once instead of a code', async () => {
    const { user, recoveryCodes } = await enrolled();
    const from = `10.7.0.${++ip}`;
    const [first] = recoveryCodes;
    // Case and the dash do not matter.
    const ok = await codeStep(await password(user.email, from), first!.toUpperCase().replace('-', ''), from);
    expect(ok.statusCode).toBe(200);
    const again = await codeStep(await password(user.email, from), first!, from);
    expectCodeError(again, M.usedRecoveryCode);
    expectCodeError(await codeStep(await password(user.email, from), 'aaaaa-bbbbb', from), M.wrongCode);
  });

  it('counts wrong codes against the account lockout, which a right password does not reset', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEdge();
    const wrong = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const from = `10.8.${ip}.${i}`;
        const cookie = await password(user.email, from);
        expectCodeError(await codeStep(cookie, await codeFor(secret, 4), from), M.wrongCode);
      }
    };
    ++ip;
    await wrong(99);
    // The password still opens the code step (99 failures so far); one more wrong code reaches the limit of 100.
    const from = `10.9.0.${ip}`;
    const cookie = await password(user.email, from);
    expectCodeError(await codeStep(cookie, await codeFor(secret, 4), from), M.wrongCode);
    const refused = await codeStep(cookie, await codeFor(secret), from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(TOO_MANY);
  });
});

describe('a browser already signed in', () => {
  it('takes the code step even from a session still before the agreement (a signer), ending that session', async () => {
    const signer = await makeUser(t.database, 'user', null, { acceptTerms: false });
    const before = await signIn(t.app, signer.email);
    const { user, secret } = await enrolled();
    const from = `10.7.0.${++ip}`;
    await awayFromStepEdge();
    const challenge = await password(user.email, from);
    const res = await codeStep(`${before}; ${challenge}`, await codeFor(secret), from);
    expect(res.statusCode).toBe(200);
    const old = await t.app.inject({ url: '/v2/self', headers: { cookie: before } });
    expect(old.json().self.id).toBe(0);
  });
});

describe('sign-in without two-factor', () => {
  it('is unchanged: the password alone signs in', async () => {
    const user = await makeUser(t.database, 'user');
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: CONSOLE_HEADERS,
      payload: { email: user.email, password: PASSWORD },
    });
    expect(res.json()).toEqual({ location: '/' });
    expect(res.cookies.map((c) => c.name)).toContain('tessera_session');
  });
});
