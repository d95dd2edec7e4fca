/** The agreement gate in the browser (spec §2 Terms, §4, §8 451). */
import { describe, expect, it } from 'vitest';
import { newPage, useServerAndBrowser } from './support/browser';
import { ROOT } from './support/server';

const env = useServerAndBrowser({ acceptTerms: false });

describe('terms (spec §2)', () => {
  it('sends a new user from sign-in to the agreement, keeps guarded pages behind it, and lets them in once accepted', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/usage`);
    await page.waitForURL(`${env.server.url}/login?returnTo=%2Fusage`);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/terms`);
    await expect.poll(() => page.title()).toBe('Tessera - Terms of Use');
    await page.getByText('Welcome!').waitFor();
    await page.getByTestId('agreement').getByText('Tessera Terms of Use').waitFor();

    await page.goto(`${env.server.url}/templates`);
    await page.waitForURL(`${env.server.url}/terms`);

    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    await page.getByTestId('nav-drawer').getByText('Organizations').waitFor();

    await page.goto(`${env.server.url}/terms`);
    await page.getByText('You have accepted this agreement.').waitFor();
    await context.close();
  });

  it('returns a visitor to the page they wanted after signing in', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/templates?sort=name`);
    await page.waitForURL(/\/login\?returnTo=/);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/templates?sort=name`);
    await context.close();
  });
});
