/**
 * Outside sign-in respects two-factor sign-in (decision 0063): the provider vouches for the first factor only; the
 * browser goes to /login's code step, and the session starts only after the code.
 */
import { TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS, makeUser, signIn } from '../../test/harness';
import { useOauthTestApp } from '../oauth/test-issuer';
import { awayFromStepEdge, codeFor, enrolThroughApi } from './test-support';

const fx = useOauthTestApp(['google']);

describe('outside sign-in with two-factor on', () => {
  it('asks for the code before the session starts', async () => {
    const user = await makeUser(fx.t.database, 'user');
    const { secret } = await enrolThroughApi(fx.t.app, await signIn(fx.t.app, user.email));
    await awayFromStepEdge();
    const b = fx.browser();
    const back = await b.signIn('google', { as: fx.issuer.person({ email: user.email, email_verified: true }) });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/login?twoFactor=code');
    expect(back.cookies.find((c) => c.name === 'tessera_session')).toBeUndefined();
    const challenge = back.cookies.find((c) => c.name === 'tessera_2fa')!;
    const res = await fx.t.app.inject({
      method: 'POST',
      url: TWO_FACTOR_PATHS.signIn,
      headers: { ...CONSOLE_HEADERS, cookie: `tessera_2fa=${challenge.value}` },
      payload: { code: await codeFor(secret) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ location: '/' });
    expect(res.cookies.find((c) => c.name === 'tessera_session')?.value).toBeTruthy();
  });
});
