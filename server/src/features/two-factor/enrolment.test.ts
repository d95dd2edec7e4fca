/**
 * Turning two-factor sign-in on and off (issue 32 item 9): enrolment with a QR code and the secret as text, the first
 * code confirming it, recovery codes shown once and stored hashed, renewal and turning off after a code or the
 * password, the operator's reset, and the audit trail; never while impersonating.
 */
import { TWO_FACTOR_MESSAGES as M, TWO_FACTOR_PATHS, TWO_FACTOR_RULES } from '@tessera/common/two-factor';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema';
import { buildTestApp, makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';
import { memoryLimiter } from '../throttle/limiter';
import { awayFromStepEdge, codeFor, enrolThroughApi, post } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ limiter: memoryLimiter() });
});
afterAll(() => t.app.close());

async function signedIn(role: 'user' | 'root' = 'user') {
  const user = await makeUser(t.database, role);
  return { user, cookie: await signIn(t.app, user.email) };
}

const status = async (cookie: string) =>
  (await t.app.inject({ url: TWO_FACTOR_PATHS.status, headers: { cookie } })).json().twoFactor;

async function auditActions(userId: number) {
  const rows = await t.database.db
    .select({ action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.targetId, String(userId)), inArray(auditLog.targetType, ['user'])))
    .orderBy(auditLog.id);
  return rows.map((r) => r.action).filter((a) => a.startsWith('two_factor.'));
}

describe('enrolment', () => {
  it('gives a secret, its otpauth URI and a QR picture, and stores the secret sealed', async () => {
    const { user, cookie } = await signedIn();
    expect(await status(cookie)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false });
    const res = await post(t.app, TWO_FACTOR_PATHS.enrol, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { secret, uri, qrCode } = res.json().enrolment;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(`otpauth://totp/Tessera:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Tessera`);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    const [row] = await t.database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
    expect(row!.secretSealed).not.toContain(secret);
    expect(row!.enabledAt).toBeNull();
    // Not on until confirmed: the password alone still signs in.
    expect(await status(cookie)).toMatchObject({ enabled: false });
    await signIn(t.app, user.email);
  });

  it("ends the account's other sessions as it turns on, keeping the one that turned it on", async () => {
    const { user, cookie } = await signedIn();
    const elsewhere = await signIn(t.app, user.email);
    const self = async (c: string) =>
      (await t.app.inject({ url: '/v2/self', headers: { cookie: c } })).json().self as { id: number };
    expect((await self(elsewhere)).id).toBe(user.id);
    await enrolThroughApi(t.app, cookie);
    expect((await self(cookie)).id).toBe(user.id);
    expect((await self(elsewhere)).id).toBe(0);
  });

  it('turns on with the first right code, returning ten recovery codes kept only as hashes', async () => {
    const { user, cookie } = await signedIn();
    const { recoveryCodes } = await enrolThroughApi(t.app, cookie);
    expect(recoveryCodes).toHaveLength(TWO_FACTOR_RULES.recoveryCodeCount);
    expect(new Set(recoveryCodes).size).toBe(recoveryCodes.length);
    for (const code of recoveryCodes) expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
    const stored = await t.database.db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]!.replace('-', ''));
    expect(await status(cookie)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(await auditActions(user.id)).toEqual(['two_factor.enable']);
    // Once on, no reply carries the secret again, and enrolling again is refused.
    const again = await post(t.app, TWO_FACTOR_PATHS.enrol, cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(M.alreadyOn);
    expect(JSON.stringify(await status(cookie))).not.toMatch(/secret/i);
  });

  it('refuses a wrong first code, and a confirmation with no set-up waiting', async () => {
    const { cookie } = await signedIn();
    const none = await post(t.app, TWO_FACTOR_PATHS.confirm, cookie, { code: '123456' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe(M.noEnrolment);
    await awayFromStepEdge();
    const { secret } = (await post(t.app, TWO_FACTOR_PATHS.enrol, cookie)).json().enrolment;
    const wrong = await post(t.app, TWO_FACTOR_PATHS.confirm, cookie, { code: await codeFor(secret, 3) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([{ path: 'body.code', message: M.wrongCode }]);
    const recovery = await post(t.app, TWO_FACTOR_PATHS.confirm, cookie, { code: 'abcde-fghjk' });
    expect(recovery.json().fields).toEqual([{ path: 'body.code', message: M.wrongCode }]);
    expect(await status(cookie)).toMatchObject({ enabled: false });
  });

  it('is for signed-in owners only: 401 anonymous, 403 while impersonating', async () => {
    const anonymous = await post(t.app, TWO_FACTOR_PATHS.enrol, '');
    expect(anonymous.statusCode).toBe(401);
    const root = await signedIn('root');
    const target = await makeUser(t.database, 'user');
    const started = await t.app.inject({
      method: 'PUT',
      url: `/auth/impersonate/${target.id}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', cookie: root.cookie },
    });
    expect(started.statusCode).toBe(200);
    const cookie = started.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await post(t.app, TWO_FACTOR_PATHS.enrol, cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(M.notWhileImpersonating);
  });
});

describe('recovery codes and turning off', () => {
  it('makes new recovery codes after a code, voiding the old ones', async () => {
    const { user, cookie } = await signedIn();
    const { secret, recoveryCodes } = await enrolThroughApi(t.app, cookie);
    const res = await post(t.app, TWO_FACTOR_PATHS.recoveryCodes, cookie, { code: await codeFor(secret) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    // An old code no longer proves anything.
    const old = await post(t.app, TWO_FACTOR_PATHS.recoveryCodes, cookie, { code: recoveryCodes[0] });
    expect(old.statusCode).toBe(400);
    expect(old.json().fields).toEqual([{ path: 'body.code', message: M.wrongCode }]);
    expect(await auditActions(user.id)).toEqual([
      'two_factor.enable',
      'two_factor.recovery_codes',
      'two_factor.failure',
    ]);
  });

  it('turns off after the password, or a recovery code, but not a wrong password, a reused code or nothing', async () => {
    const { user, cookie } = await signedIn();
    const { secret, recoveryCodes } = await enrolThroughApi(t.app, cookie);
    const nothing = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().fields).toEqual([{ path: 'body.code', message: M.proofMissing }]);
    const wrong = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { password: 'Wrong-passw0rd!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([{ path: 'body.password', message: M.wrongPassword }]);
    // The confirming code's step (the previous one) is spent.
    const reused = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { code: await codeFor(secret, -1) });
    expect(reused.json().fields).toEqual([{ path: 'body.code', message: M.reusedCode }]);
    expect(await status(cookie)).toMatchObject({ enabled: true });

    const off = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { password: PASSWORD });
    expect(off.statusCode).toBe(200);
    expect(off.json().twoFactor).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect(
      await t.database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id)),
    ).toEqual([]);
    const again = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { password: PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(M.notOn);

    const second = await enrolThroughApi(t.app, cookie);
    const byRecovery = await post(t.app, TWO_FACTOR_PATHS.disable, cookie, { code: second.recoveryCodes[3] });
    expect(byRecovery.statusCode).toBe(200);
    expect(recoveryCodes).not.toContain(second.recoveryCodes[3]);
    expect(await auditActions(user.id)).toContain('two_factor.disable');
  });

  it('can be reset by root only, who is audited; a user without it is a 404', async () => {
    const { user, cookie } = await signedIn();
    await enrolThroughApi(t.app, cookie);
    const admin = await makeUser(t.database, 'super');
    const superCookie = await signIn(t.app, admin.email);
    const root = await signedIn('root');
    const del = (c: string, id: number) =>
      t.app.inject({
        method: 'DELETE',
        url: TWO_FACTOR_PATHS.reset(id),
        headers: { 'x-requested-with': 'XMLHttpRequest', cookie: c },
      });
    const read = (c: string, id: number) =>
      t.app.inject({ method: 'GET', url: TWO_FACTOR_PATHS.reset(id), headers: { cookie: c } });
    expect((await read(superCookie, user.id)).statusCode).toBe(403);
    const on = await read(root.cookie, user.id);
    expect(on.statusCode).toBe(200);
    expect(on.json().twoFactor).toEqual({ enabled: true, enabledAt: expect.any(String) });
    const nobody = await read(root.cookie, 999_999_999);
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error).toBe(M.noSuchUser);
    expect((await del(superCookie, user.id)).statusCode).toBe(403);
    const res = await del(root.cookie, user.id);
    expect(res.statusCode).toBe(200);
    expect(await status(cookie)).toMatchObject({ enabled: false });
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'two_factor.reset'), eq(auditLog.targetId, String(user.id))));
    expect(entry!.actorId).toBe(root.user.id);
    const none = await del(root.cookie, user.id);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe(M.resetNotOn);
    expect((await read(root.cookie, user.id)).json().twoFactor).toEqual({ enabled: false, enabledAt: null });
    // Not one's own: that takes proof, from the profile.
    const own = await del(root.cookie, root.user.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(M.resetOwn);
    // The password alone signs in again.
    await signIn(t.app, user.email);
  });
});
