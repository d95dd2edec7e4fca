/**
 * 'Remember me' across a browser restart (spec §2 Sign in, §3 login form, §4 session): a Chromium profile on
 * disk is closed and launched again, as a person quits and reopens their browser.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptTerms, callApi, launchPersistent, signInWithForm } from './support/browser';
import { ROOT, type RunningServer, seedUser, startServer } from './support/server';

const forgetful = seedUser('user', { name: 'Fay Forgetful' });

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ users: [forgetful] });
  await acceptTerms(server.url, ROOT);
  await acceptTerms(server.url, forgetful);
});
afterAll(() => server?.stop());

const profile = () => mkdtempSync(path.join(tmpdir(), 'tessera-e2e-profile-'));

/** The page a freshly launched profile opens with. */
const firstPage = (context: BrowserContext): Promise<Page> =>
  context.pages()[0] ? Promise.resolve(context.pages()[0]!) : context.newPage();

describe('remember me (spec §2, §4)', () => {
  it('keeps a remembered sign-in across a browser restart, and the email on /login after signing out', async () => {
    const userDataDir = profile();
    let context = await launchPersistent(userDataDir);
    let page = await firstPage(context);
    await signInWithForm(page, server.url, ROOT, { remember: true });
    await page.waitForURL(`${server.url}/`);
    await context.close();

    context = await launchPersistent(userDataDir);
    page = await firstPage(context);
    await page.goto(`${server.url}/usage`);
    await expect.poll(() => page.title()).toBe('Tessera - Usage');
    expect(new URL(page.url()).pathname).toBe('/usage');
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({
      status: 200,
      body: { self: { email: ROOT.email } },
    });

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByTestId('user-card').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(ROOT.email);
    expect(await page.getByLabel('Remember me').isChecked()).toBe(true);
    await context.close();

    // The address outlives the sign-out and another restart; the session does not.
    context = await launchPersistent(userDataDir);
    page = await firstPage(context);
    await page.goto(`${server.url}/usage`);
    await page.waitForURL(`${server.url}/login?returnTo=%2Fusage`);
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(ROOT.email);
    await context.close();
  });

  it('ends a sign-in without "Remember me" with the browser', async () => {
    const userDataDir = profile();
    let context = await launchPersistent(userDataDir);
    let page = await firstPage(context);
    await signInWithForm(page, server.url, forgetful, { remember: false });
    await page.waitForURL(`${server.url}/`);
    // Signed in for as long as the browser stays open.
    await page.goto(`${server.url}/usage`);
    await expect.poll(() => page.title()).toBe('Tessera - Usage');
    await context.close();

    context = await launchPersistent(userDataDir);
    page = await firstPage(context);
    await page.goto(`${server.url}/usage`);
    await page.waitForURL(`${server.url}/login?returnTo=%2Fusage`);
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ status: 200, body: { self: { id: 0 } } });
    // Nor is the address kept for next time.
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await page.getByLabel('Remember me').isChecked()).toBe(false);
    await context.close();
  });
});
