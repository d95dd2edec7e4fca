import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, signInAsRoot, signInWithForm, useServerAndBrowser } from './support/browser';
import { fieldError } from './support/forms';
import { ROOT, seedUser } from './support/server';

const signer = seedUser('user', { name: 'Sam Signer', signer: true });

const env = useServerAndBrowser({ users: [signer] });

/** The text as the person sees it: innerText follows CSS text-transform, textContent does not. */
const shownText = (locator: Locator) => locator.evaluate((el) => (el as HTMLElement).innerText.trim());

const background = (page: import('playwright-core').Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('top bar (spec §2-3)', () => {
  it('starts light, toggles to dark, and keeps the choice across a reload', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/faq`);
    await page.getByTestId('page-title').waitFor();
    expect(await background(page)).toBe('rgb(255, 255, 255)');
    await page.getByRole('button', { name: 'Toggle dark mode' }).click();
    await expect.poll(() => background(page)).not.toBe('rgb(255, 255, 255)');
    await page.reload();
    await page.getByTestId('page-title').waitFor();
    expect(await background(page)).not.toBe('rgb(255, 255, 255)');
    await context.close();
  });

  it('has a logo that links home and a user card that signs out', async () => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    await page.getByRole('link', { name: 'Tessera home' }).click();
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    await page.getByRole('button', { name: 'User menu' }).click();
    const card = page.getByTestId('user-card');
    await card.getByText(ROOT.email).first().waitFor();
    expect(await card.textContent()).toContain('Root');
    await card.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${env.server.url}/login`);
    await page.goto(`${env.server.url}/usage`);
    await page.waitForURL(`${env.server.url}/login?returnTo=%2Fusage`);
    await context.close();
  });
});

describe('wording (spec §2)', () => {
  it("shows buttons with the spec's wording as written, not in capitals", async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    expect(await shownText(page.getByRole('button', { name: 'Sign in', exact: true }))).toBe('Sign in');
    expect(await shownText(page.getByRole('link', { name: 'Sign Up' }))).toBe('Sign Up');

    await signInWithForm(page, env.server.url, signer);
    await page.waitForURL(`${env.server.url}/terms`);
    const accept = page.getByRole('button', { name: 'I accept this Agreement' });
    expect(await shownText(accept)).toBe('I accept this Agreement');
    await accept.click();
    await page.waitForURL(`${env.server.url}/`);

    await page.getByRole('button', { name: 'User menu' }).click();
    const card = page.getByTestId('user-card');
    expect(await shownText(card.getByRole('button', { name: 'Sign Out' }))).toBe('Sign Out');
    expect(await shownText(card.getByRole('link', { name: 'Profile' }))).toBe('Profile');
    await context.close();
  });
});

describe('sign-in page (spec §2)', () => {
  it('links the password reset and sign-up, and no provider when none is set up (issue 32)', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/password/forgot');
    expect(await page.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/signup');
    // The configured providers' buttons are e2e/two-factor.spec.ts's and oauth.spec.ts's; none is set up here.
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName(`${location.origin}/auth/providers`).length))
      .toBe(1);
    expect(await page.getByRole('link', { name: /^Sign in with / }).count()).toBe(0);
    await context.close();
  });

  it('shows an outside sign-in that came back failed as a closable alert', async () => {
    const { context, page } = await newPage(env.browser);
    // As the server sends the browser back (features/oauth/failures.ts).
    await page.goto(`${env.server.url}/login?failure=unconfigured&provider=github`);
    const alert = page.getByTestId('alert-stack').getByRole('alert');
    await alert.getByText('Sign-in with GitHub is not set up on this server. Use your email and password.').waitFor();
    await expect.poll(() => page.url()).toBe(`${env.server.url}/login`);
    await alert.getByRole('button', { name: 'Close' }).click();
    await alert.waitFor({ state: 'detached' });
    await context.close();
  });

  it('checks the fields before sending, and remembers the email when asked', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => fieldError(page, 'Email')).toBe('Please provide an email address.');
    await expect.poll(() => fieldError(page, 'Password')).toBe('Please provide a password.');
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/`);
    const session = (await context.cookies()).find((c) => c.name === 'tessera_session');
    expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${env.server.url}/login`);
    expect(await page.getByLabel('Email').inputValue()).toBe(ROOT.email);
    await context.close();
  });
});
