import { SUBMENU_CLOSE_DELAY_MS, SUBMENU_OPEN_DELAY_MS } from '@tessera/common/constants';
import { describe, expect, it } from 'vitest';
import { newPage, signInAsRoot, useServerAndBrowser } from './support/browser';

const env = useServerAndBrowser({ env: { CI_HOST: 'ci.tessera.example' } });

const drawerWidth = (page: import('playwright-core').Page) =>
  page.getByTestId('nav-drawer').evaluate((el) => Math.round(el.getBoundingClientRect().width));

describe('drawer (spec §2)', () => {
  it('is permanent and 200 px wide at 1280 px', async () => {
    const { context, page } = await newPage(env.browser, 1280);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-mode')).toBe('full');
    await expect.poll(() => drawerWidth(page)).toBe(200);
    expect(await page.getByTestId('nav-menu-button').count()).toBe(0);
    await context.close();
  });

  it('is a 56 px rail at 900 px that expands to 200 px on hover', async () => {
    const { context, page } = await newPage(env.browser, 900);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-mode')).toBe('rail');
    await expect.poll(() => drawerWidth(page)).toBe(56);
    await drawer.hover();
    await expect.poll(() => drawerWidth(page)).toBe(200);
    await page.mouse.move(800, 500);
    await expect.poll(() => drawerWidth(page)).toBe(56);
    await context.close();
  });

  it('opens a group of the rail as a flyout once the pointer has rested on it 300 ms, and closes it 250 ms after the pointer leaves', async () => {
    const { context, page } = await newPage(env.browser, 900);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-mode')).toBe('rail');
    const flyout = page.getByRole('group', { name: 'System' });

    await drawer.getByRole('button', { name: 'System' }).hover();
    // Right after the pointer arrives the group is not open yet; past the open delay it is.
    expect(await flyout.isVisible()).toBe(false);
    await page.waitForTimeout(SUBMENU_OPEN_DELAY_MS + 200);
    expect(await flyout.isVisible()).toBe(true);
    expect(await flyout.getByRole('link').allTextContents()).toEqual([
      'Releases',
      'Deployments',
      'Clusters',
      'Query',
      'SSH',
      'Billing',
      'Sessions',
      'Segments',
    ]);

    // Leaving for the page closes it once the close delay has passed.
    await page.mouse.move(800, 500);
    await page.waitForTimeout(SUBMENU_CLOSE_DELAY_MS + 200);
    expect(await flyout.isVisible()).toBe(false);

    // The pointer can travel from the group into its flyout and follow a link there.
    await drawer.getByRole('button', { name: 'Support' }).hover();
    const support = page.getByRole('group', { name: 'Support' });
    await support.waitFor();
    await support.getByRole('link', { name: 'Contact Us' }).click();
    await page.waitForURL(`${env.server.url}/contact`);
    await expect.poll(() => page.title()).toBe('Tessera - Contact Us');
    await context.close();
  });

  it('is icon-only at 600 px: a menu button opens it', async () => {
    const { context, page } = await newPage(env.browser, 600);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/usage`);
    await page.getByTestId('nav-menu-button').click();
    const drawer = page.getByTestId('nav-drawer');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-mode')).toBe('icon');
    await drawer.getByText('Templates').click();
    await page.waitForURL(`${env.server.url}/templates`);
    await expect.poll(() => page.title()).toBe('Tessera - Templates');
    await context.close();
  });

  it('highlights the active item and links CI pages in-app on a local host', async () => {
    const { context, page } = await newPage(env.browser, 1280);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/templates/edit/3`);
    const drawer = page.getByTestId('nav-drawer');
    const active = drawer.locator('[aria-current="page"]');
    await expect.poll(() => active.textContent()).toContain('Templates');
    await drawer.getByText('System').click();
    const releases = drawer.getByRole('link', { name: 'Releases' });
    expect(await releases.getAttribute('href')).toBe('/releases');
    await context.close();
  });
});
