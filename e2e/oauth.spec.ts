/**
 * Outside sign-in in Chromium (spec §2 Sign in, §7 /oauth/{provider}): the 'Sign in with Google' button, the
 * provider's own sign-in page on a real local OpenID provider, the redirects back, and where the person lands.
 */
import { PROVIDER_FAILURES, providerNotConfigured } from '@tessera/common/providers';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, cookieHeader, newPage, signInAsRoot } from './support/browser';
import { useServerWithIssuer } from './support/oidc';
import { ROOT, seedUser } from './support/server';

/** Has an account (made by the operator) but has not accepted the agreement yet. */
const newcomer = seedUser('user', { name: 'Nora Newcomer', signer: true });

const env = useServerWithIssuer(['google'], { users: [newcomer] });

/** From /login through the provider's page, choosing `choice` there ('Continue as …' or 'Cancel'). */
async function signInWithGoogle(page: Page, choice: string) {
  await page.goto(`${env.server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with Google' }).click();
  await page.getByRole('heading', { name: 'Sign in to the test provider' }).waitFor();
  expect(new URL(page.url()).origin).toBe(env.issuer.url);
  await page.getByRole('link', { name: choice }).click();
  await page.waitForURL((url) => url.origin === env.server.url && !url.pathname.startsWith('/oauth/'));
}

const providerAlert = (page: Page) => page.getByTestId('alert-stack').getByRole('alert');

describe('sign-in with an outside provider (spec §2)', () => {
  it('signs an existing user in through the provider and lands on Home, for this browser session only', async () => {
    env.issuer.person({ email: ROOT.email, email_verified: true, name: 'Root at Google' });
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, `Continue as ${ROOT.email}`);

    await page.waitForURL(`${env.server.url}/`);
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    await page.getByTestId('nav-drawer').getByText('Organizations').waitFor();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByTestId('user-card').getByText(ROOT.email).first().waitFor();

    const self = await callApi(page, 'GET', '/v2/self');
    expect(self).toMatchObject({ status: 200, body: { self: { email: ROOT.email, role: 'root' } } });
    // An outside sign-in is never remembered: the session cookie ends with the browser.
    const session = (await context.cookies(env.server.url)).find((c) => c.name === 'tessera_session');
    expect(session?.expires).toBe(-1);
    // The one-time attempt cookie is spent.
    expect(await cookieHeader(context, `${env.server.url}/oauth/google/callback`)).not.toContain('tessera_oauth');
    await context.close();
  });

  it('sends someone who has not accepted the agreement to /terms first, then Home once they accept', async () => {
    env.issuer.person({ email: newcomer.email, email_verified: true, name: newcomer.name });
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, `Continue as ${newcomer.email}`);

    await page.waitForURL(`${env.server.url}/terms`);
    await page.getByText('Welcome!').waitFor();
    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    const self = await callApi(page, 'GET', '/v2/self');
    expect(self).toMatchObject({ status: 200, body: { self: { email: newcomer.email, role: 'user' } } });
    await context.close();
  });

  it('signs a new person up into the organization accepting their domain, through the agreement to Home', async () => {
    const admin = await newPage(env.browser);
    await signInAsRoot(admin.page, env.server.url);
    const created = await callApi(admin.page, 'POST', '/v2/organizations', {
      name: 'Lovelace Labs',
      emailDomain: 'lovelace-labs.example',
      acceptUsers: true,
    });
    expect(created.status).toBe(200);
    await admin.context.close();

    const email = 'ada@lovelace-labs.example';
    env.issuer.person({ email, email_verified: true, name: 'Ada Lovelace' });
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, `Continue as ${email}`);
    await page.waitForURL(`${env.server.url}/terms`);
    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await page.getByText('Signed in as Ada Lovelace (Organization User, Lovelace Labs).').waitFor();
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({
      body: { self: { email, role: 'user', organizationName: 'Lovelace Labs' } },
    });
    await context.close();
  });

  it('turns a new person away when no organization accepts their domain, naming the domain', async () => {
    env.issuer.person({ email: 'stranger@nobody-accepts.example', email_verified: true, name: 'S' });
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, 'Continue as stranger@nobody-accepts.example');
    await providerAlert(page).waitFor();
    expect(await providerAlert(page).textContent()).toContain(
      PROVIDER_FAILURES.domain('Google', 'nobody-accepts.example'),
    );
    await expect.poll(() => page.url()).toBe(`${env.server.url}/login`);
    expect((await callApi(page, 'GET', '/v2/self')).body).toMatchObject({ self: { id: 0 } });
    await context.close();
  });

  it('comes back to /login saying so when the person cancels at the provider', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, 'Cancel');
    await providerAlert(page).getByText(PROVIDER_FAILURES.denied('Google')).waitFor();
    await expect.poll(() => page.url()).toBe(`${env.server.url}/login`);
    expect((await callApi(page, 'GET', '/v2/self')).body).toMatchObject({ self: { id: 0 } });
    await context.close();
  });

  it('refuses an address the provider has not verified', async () => {
    env.issuer.person({ email: 'unverified@tessera.test', email_verified: false, name: 'U' });
    const { context, page } = await newPage(env.browser);
    await signInWithGoogle(page, 'Continue as unverified@tessera.test');
    await providerAlert(page).getByText(PROVIDER_FAILURES.unverified('Google')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('shows only the configured provider, and answers a start of one that is not with a 404 naming it', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Google' }).waitFor();
    expect(await page.getByRole('link', { name: /^Sign in with / }).allTextContents()).toEqual(['Sign in with Google']);
    const res = await page.goto(`${env.server.url}/oauth/microsoft`);
    expect(res?.status()).toBe(404);
    expect(await res?.json()).toMatchObject({ error: providerNotConfigured('Microsoft'), code: 'not_found' });
    await context.close();
  });
});
