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
