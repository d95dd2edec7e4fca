/**
 * The 451 gate seen from a browser (spec §4, §8 HTTP 451, decision 0006): a signed-in signer's calls answer
 * 451 except the agreement's own, reading oneself and signing out; the console keeps them on /terms until
 * they accept. (e2e/terms.spec.ts walks the Terms page itself.)
 */
import { describe, expect, it } from 'vitest';
import { callApi, newPage, signInWithForm, useServerAndBrowser } from './support/browser';
import { seedUser } from './support/server';

const signer = seedUser('user', { name: 'Sam Signer', signer: true });

const env = useServerAndBrowser({ users: [signer] });

const TERMS_REQUIRED = { error: 'Please accept the agreement to continue.' };

describe('the agreement gate (spec §4, §8 451)', () => {
  it('answers a signer 451 on every other call while the agreement and their own record answer 200', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, signer);
    await page.waitForURL(`${env.server.url}/terms`);

    expect(await callApi(page, 'GET', '/v2/terms')).toMatchObject({
      status: 200,
      body: { ndaId: expect.any(Number), nda: expect.stringContaining('Tessera Terms of Use') },
    });
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({
      status: 200,
      body: { self: { email: signer.email, role: 'signer' } },
    });
    for (const [method, path] of [
      ['GET', '/v2/organizations'],
      ['GET', '/v2/users'],
      ['GET', '/v2/sessions?mine=true'],
      ['GET', '/v2/version'],
      ['PUT', '/auth/stopImpersonating'],
      ['PUT', '/auth/impersonate/1'],
    ] as const) {
      expect(await callApi(page, method, path), `${method} ${path}`).toMatchObject({
        status: 451,
        body: TERMS_REQUIRED,
      });
    }
    expect(
      await callApi(page, 'POST', '/auth/password/change', { password: signer.password, newPassword: 'N3w-passw0rd!' }),
    ).toMatchObject({ status: 451, body: TERMS_REQUIRED });
    await context.close();
  });

  it('keeps a signer on /terms whichever page they open, and lets them through once they accept', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, signer);
    await page.waitForURL(`${env.server.url}/terms`);
    for (const path of ['/', '/organizations', '/usage?range=week', '/users/1']) {
      await page.goto(`${env.server.url}${path}`);
      await page.waitForURL(`${env.server.url}/terms`);
    }
    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    expect(await callApi(page, 'GET', '/v2/version')).toMatchObject({ status: 200, body: { version: 'e2e-1' } });
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ body: { self: { role: 'user' } } });
    await page.goto(`${env.server.url}/usage`);
    await expect.poll(() => page.title()).toBe('Tessera - Usage');
    await context.close();
  });
});
