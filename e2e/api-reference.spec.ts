/**
 * The API reference (/api, issue 17) in Chromium against the real server: public, every lookup and key operation
 * of the published document listed, "Try" off, nothing fetched from another host, and WCAG
 * 2.1 AA in both themes, wide and narrow.
 */
import { mkdirSync } from 'node:fs';
import { LOOKUP_ENDPOINT_NAMES } from '@tessera/common/lookups';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll, stillPages } from './support/page-checks';

const env = useServerAndBrowser();
const SHOTS = '/tmp/shots-api-reference';
mkdirSync(SHOTS, { recursive: true });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/**
 * Opens /api signed out and waits for the reference to show its operations; counts requests to other hosts and
 * keeps the page's uncaught errors (issue 32 item 7: RapiDoc threw on every load).
 */
async function openReference(
  colorScheme: 'light' | 'dark',
  width: number,
): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true });
  closers.push(() => context.close());
  await stillPages(context);
  const page = await context.newPage();
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.stack ?? e.message));
  const own = new URL(env.server.url).host;
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && url.host !== own) foreign.push(r.url());
  });
  await page.goto(`${env.server.url}/api`);
  await page.getByTestId('api-reference').waitFor();
  await expect.poll(() => shadowText(page), { timeout: 20_000 }).toContain('/v2/identities/byEmail');
  // Every operation rendered, down to the last one's replies: an error in any would have been thrown by now.
  await expect.poll(() => shadowText(page), { timeout: 20_000 }).toContain('/v2/usage/calls.csv');
  return { page, foreign, errors };
}

const shadowText = (page: Page) =>
  page.locator('rapi-doc').evaluate((el) => (el as HTMLElement).shadowRoot?.textContent ?? '');

describe('API reference (issue 17)', () => {
  it('lists every lookup and key operation, offers no request form, fetches nothing elsewhere', async () => {
    const { page, foreign } = await openReference('light', 1280);
    expect(await page.getByTestId('page-title').textContent()).toBe('API Reference');
    const text = await shadowText(page);
    for (const name of LOOKUP_ENDPOINT_NAMES) expect(text, name).toContain(`/v2/identities/${name}`);
    for (const path of ['/v2/keys', '/v2/keys/{id}', '/v2/templates']) expect(text, path).toContain(path);
    // "Try" is off (the playground is where calls are tried): no request form, so nothing can go elsewhere.
    expect(await page.locator('rapi-doc').evaluate((el) => el.getAttribute('allow-try'))).toBe('false');
    expect(await page.locator('rapi-doc api-request input').count()).toBe(0);
    expect(foreign).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const { page, foreign, errors } = await openReference(colorScheme, width);
        await page.screenshot({ path: `${SHOTS}/api-${colorScheme}-${width}.png` });
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        expect(foreign).toEqual([]);
        expect(errors).toEqual([]);
        // Wide, RapiDoc renders every operation with its examples at once: axe-core reads a large shadow tree.
      }, 180_000);
    }
  }

  it('loads without an error in either theme, and reports none to the server (issue 32 item 7)', async () => {
    const reported = () =>
      env.server.child
        .output()
        .split('\n')
        .filter((line) => line.includes('client error'));
    const before = reported().length;
    for (const colorScheme of ['light', 'dark'] as const) {
      // Wide: the "read" layout renders every operation with its replies at once.
      const { page, errors } = await openReference(colorScheme, 1280);
      expect(errors, colorScheme).toEqual([]);
      await page.context().close();
    }
    expect(reported().slice(before)).toEqual([]);
  });
});
