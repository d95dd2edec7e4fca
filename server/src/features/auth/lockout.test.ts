/**
 * One account, one sign-in throttle, however its address is written (issue 12 item 9): failures counted under one
 * spelling lock out every other, and a spelling the other forms would refuse (a non-ASCII local part, which the
 * database's lower() folds onto the account) is refused at sign-in too rather than counted apart.
 */
import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, PASSWORD, type TestApp, uniqueDomain } from '../../test/harness';
import { memoryLimiter } from '../throttle/limiter';
import { TOO_MANY } from '../throttle/rules';
import { createUser } from '../users/service';
import { LOGIN_FAILED } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ limiter: memoryLimiter() });
});
afterAll(() => t.app.close());

let ip = 0;
const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: CONSOLE_HEADERS,
    payload: { email, password },
    remoteAddress,
  });

/** Full-width letters and digits, which NFKC turns back into ASCII. */
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

async function account() {
  const local = `admina2-${randomUUID().slice(0, 8)}`;
  const domain = uniqueDomain();
  await createUser(t.database, { email: `${local}@${domain}`, role: 'user', password: PASSWORD });
  return { local, domain, email: `${local}@${domain}` };
}

describe('sign-in lockout per account', () => {
  it('locks every spelling of an address out after 100 failures spread over several of them', async () => {
    const { local, domain, email } = await account();
    const spellings = [
      email,
      email.toUpperCase(),
      `${fullWidth(local)}@${domain}`,
      `  ${local.toUpperCase()}@${domain} `,
    ];
    const from = `10.1.0.${++ip}`;
    for (let i = 0; i < 100; i++) {
      const res = await login(spellings[i % spellings.length]!, 'Wrong-passw0rd!', from);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(LOGIN_FAILED);
    }
    for (const spelling of spellings) {
      const refused = await login(spelling, PASSWORD, `10.1.1.${++ip}`);
      expect(refused.statusCode, spelling).toBe(429);
      expect(refused.json().error).toBe(TOO_MANY);
    }
  });

  it('refuses a dotted capital I (U+0130), which the database folds onto the account, as the other forms do', async () => {
    const { local, domain, email } = await account();
    const from = `10.1.0.${++ip}`;
    for (let i = 0; i < 100; i++) expect((await login(email, 'Wrong-passw0rd!', from)).statusCode).toBe(401);
    const dotted = `${local.replace('i', '\u0130')}@${domain}`;
    const res = await login(dotted, PASSWORD, `10.1.1.${++ip}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'body.email', message: MESSAGES.email }]);
    // The same answer before any failure: it is the address that is refused, not the attempt.
    const fresh = await account();
    const before = await login(`${fresh.local.replace('i', '\u0130')}@${fresh.domain}`, PASSWORD, `10.1.1.${++ip}`);
    expect(before.statusCode).toBe(400);
    expect((await login(email, PASSWORD, `10.1.1.${++ip}`)).statusCode).toBe(429);
  });

  it('signs in with any spelling that is the same address, while not locked', async () => {
    const { local, domain } = await account();
    for (const spelling of [`${local.toUpperCase()}@${domain.toUpperCase()}`, `${fullWidth(local)}＠${domain}`]) {
      expect((await login(spelling, PASSWORD, `10.1.1.${++ip}`)).statusCode, spelling).toBe(200);
    }
  });
});
