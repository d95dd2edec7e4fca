/**
 * Spec §2 navigation behaviour in Chromium: what happens at the start of a navigation even when the page's code
 * is slow to arrive (model cleared and `clear` sent, route recorded, loading flag on, alerts cleared, `hit` sent),
 * what follows once it has arrived (flag off, title), and where the page is scrolled: to the top, also on Back
 * and Forward, or to a hash anchor 72 px below the top of the window.
 */
import { SCROLL_OFFSET_PX } from '@tessera/common/constants';
import { selfChannel } from '@tessera/common/socket';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, signInAsRoot, useServerAndBrowser } from './support/browser';
import { watchSocket } from './support/socket';

const env = useServerAndBrowser();

const isHit = (message: unknown, url: string) =>
  Array.isArray(message) && message[0] === 'hit' && (message[1] as { url?: string }).url === url;
const isClear = (message: unknown) => Array.isArray(message) && message[0] === 'clear';

/** Waits until the console has finished its navigation to a page titled `title`. */
async function arrived(page: Page, title: string): Promise<void> {
  await expect.poll(() => page.title()).toBe(`Tessera - ${title}`);
  await page.locator('[data-testid="page-spinner"][aria-busy="false"]').waitFor({ state: 'attached' });
}

/** The window's scroll position once it has stopped moving (a smooth scroll has ended, nothing restores another). */
async function restingScroll(page: Page): Promise<number> {
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
  let last = -1;
  let still = 0;
  for (let i = 0; i < 200 && still < 5; i += 1) {
    await frames();
    const y = await page.evaluate(() => Math.round(window.scrollY));
    still = y === last ? still + 1 : 0;
    last = y;
  }
  return last;
}

/** Makes every page of this browser context tall enough to scroll far down. */
async function tallPages(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const style = document.createElement('style');
    style.textContent = 'main { padding-bottom: 3000px !important; }';
    document.addEventListener('DOMContentLoaded', () => document.head.append(style), { once: true });
  });
}

const drawerLink = (page: Page, name: string) => page.getByTestId('nav-drawer').getByRole('link', { name });

describe('navigation (spec §2)', () => {
  it('shows the spinner, clears the alerts and sends the hit as soon as a link is followed, before slow page code arrives; the title follows the code', async () => {
    const { context, page } = await newPage(env.browser);
    const socket = watchSocket(page);
    // An alert to be cleared: an outside sign-in that failed comes back to /login with one.
    await page.goto(`${env.server.url}/login?failure=unconfigured&provider=github`);
    const alerts = page.getByTestId('alert-stack').getByRole('alert');
    await alerts.first().waitFor();
    await arrived(page, 'Sign in');

    // The sign-up page's code is held back until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const requested: string[] = [];
    await page.route(/\/assets\/signup-page-[^/]+\.js$/, async (route) => {
      requested.push(route.request().url());
      await held;
      await route.continue();
    });
    const spinner = page.getByTestId('page-spinner');
    await page.getByRole('link', { name: 'Sign Up' }).click();
    await expect.poll(() => requested.length).toBe(1);

    // The code has not arrived, yet the navigation has begun: the route, the flag and its spinner, no alerts, the hit.
    await page.waitForURL(`${env.server.url}/signup`);
    expect(await spinner.getAttribute('aria-busy')).toBe('true');
    await spinner.getByRole('progressbar', { name: 'Loading' }).waitFor({ state: 'visible' });
    await expect.poll(() => spinner.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await expect.poll(() => alerts.count()).toBe(0);
    await expect.poll(() => socket.sent.some((m) => isHit(m, `${env.server.url}/signup`))).toBe(true);
    // The title waits for the page.
    expect(await page.title()).toBe('Tessera - Sign in');

    release();
    await arrived(page, 'Sign Up');
    await page.getByTestId('page-title').getByText('Sign Up').waitFor();
    await spinner.getByRole('progressbar').waitFor({ state: 'hidden' });
    await context.close();
  });

  it("sends `clear` at every navigation after the first, before its hit, and keeps the user's own channel", async () => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    const socket = watchSocket(page);
    await page.goto(`${env.server.url}/usage`);
    await arrived(page, 'Usage');
    const self = (await callApi(page, 'GET', '/v2/self')).body as { self: { id: number } };
    await socket.subscribedToSelf(self.self.id);
    // The first navigation has no page before it to clear.
    expect(socket.sent.filter(isClear)).toEqual([]);

    await drawerLink(page, 'Templates').click();
    await arrived(page, 'Templates');
    await expect.poll(() => socket.sent.filter(isClear).length).toBe(1);
    const clearAt = socket.sent.findIndex(isClear);
    const hitAt = socket.sent.findIndex((m) => isHit(m, `${env.server.url}/templates`));
    expect(clearAt).toBeGreaterThanOrEqual(0);
    expect(hitAt).toBeGreaterThan(clearAt);

    // The server dropped the page's subscriptions; the user's own channel is asked for again and granted.
    const subscribedSelf = JSON.stringify(['subscribed', selfChannel(self.self.id)]);
    await expect.poll(() => socket.received.filter((m) => JSON.stringify(m) === subscribedSelf).length).toBe(2);

    await drawerLink(page, 'Usage').click();
    await arrived(page, 'Usage');
    await expect.poll(() => socket.sent.filter(isClear).length).toBe(2);
    await context.close();
  });

  it('goes to the top of the page on Back and Forward, not to where the page was left', async () => {
    const { context, page } = await newPage(env.browser);
    await tallPages(page);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    await arrived(page, 'Usage');
    await page.evaluate(() => window.scrollTo(0, 1500));
    expect(await restingScroll(page)).toBe(1500);

    await drawerLink(page, 'Templates').click();
    await arrived(page, 'Templates');
    expect(await restingScroll(page)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 1000));
    expect(await restingScroll(page)).toBe(1000);

    await page.goBack();
    await arrived(page, 'Usage');
    expect(await restingScroll(page)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 800));

    await page.goForward();
    await arrived(page, 'Templates');
    expect(await restingScroll(page)).toBe(0);
    await context.close();
  });

  it('scrolls to a hash anchor 72 px below the top of the window, when opened and when reached by Back', async () => {
    const { context, page } = await newPage(env.browser);
    await tallPages(page);
    await signInAsRoot(page, env.server.url);
    const anchorTop = () =>
      page.evaluate(() => Math.round(document.getElementById('sessions')?.getBoundingClientRect().top ?? Number.NaN));

    await page.goto(`${env.server.url}/profile#sessions`);
    await arrived(page, 'Profile');
    await restingScroll(page);
    expect(await anchorTop()).toBe(SCROLL_OFFSET_PX);

    // Left from elsewhere on the page, and come back to by Back: the hash decides, not the position it was left at.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await restingScroll(page)).toBe(0);
    await drawerLink(page, 'Usage').click();
    await arrived(page, 'Usage');
    await page.evaluate(() => window.scrollTo(0, 1200));
    await page.goBack();
    await arrived(page, 'Profile');
    expect(new URL(page.url()).hash).toBe('#sessions');
    expect(await restingScroll(page)).toBeGreaterThan(0);
    expect(await anchorTop()).toBe(SCROLL_OFFSET_PX);

    await page.goForward();
    await arrived(page, 'Usage');
    expect(await restingScroll(page)).toBe(0);
    await context.close();
  });
});
