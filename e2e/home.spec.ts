/**
 * The home page (issue 16, item 3) in Chromium against the real server: this month's requests after calls made
 * with a key, a call made while the page is open counted without a reload, the key listed by its last use; a
 * member of an organization with a contract sees the cost against its monthly limit; WCAG 2.1 AA in both themes,
 * wide and narrow, with no sideways scroll. Screenshots go to SCREENSHOT_DIR (default /tmp/shots-home).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';
import { type Account, seedUser } from './support/server';

// Two words, so the shell's user menu shows two initials ('MM'), which its accessible name must hold (WCAG 2.5.3).
const MEMBER = seedUser('user', { name: 'Mia Moreno' });
const env = useServerAndBrowser({ users: [MEMBER] });
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-home';
const openAs = usePages(env);

const pageAs = (account: Account | 'root', options: PageOptions = {}) => openAs(account, options);

/** Makes a key as the page's user; its bearer token. */
async function makeKey(page: Page, name: string): Promise<{ id: string; token: string }> {
  const made = await callApi(page, 'POST', '/v2/keys', { name });
  expect(made.status).toBe(201);
  const item = Object.values((made.body as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
  return { id: item.id, token: `${item.id}${item.secret}` };
}

async function lookup(token: string): Promise<void> {
  const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=someone@example.com`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
}

const figure = (page: Page, name: string) => page.getByTestId(`home-${name}`);

/** Opens home and waits for its figures, its lists and the contract sentence or bar. */
async function openHome(page: Page): Promise<void> {
  await page.goto(`${env.server.url}/`);
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
  await figure(page, 'requests').waitFor();
  await page.getByTestId('home-sparkline-text').waitFor();
  await page.getByTestId('limit-text').filter({ hasNotText: 'Loading' }).waitFor();
  await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
}

describe('home (issue 16)', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // An organization with a contract of $10 a request and a $500 monthly limit, with the member in it.
    const root = await pageAs('root');
    const made = await callApi(root, 'POST', '/v2/organizations', { name: 'Home Co' });
    expect(made.status).toBe(200);
    const organizationId = Object.values(
      (made.body as { organizations: Record<string, { id: number }> }).organizations,
    )[0]!.id;
    const moved = await callApi(root, 'PUT', `/v2/users/${env.server.users[0]!.id}`, { organizationId });
    expect(moved.status).toBe(200);
    const contract = await callApi(root, 'POST', '/v2/contracts', {
      organizationId,
      name: 'Home Co standard',
      startsAt: new Date(Date.now() - 86_400_000).toISOString(),
      endsAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      status: 'active',
      pricePerRequest: 10,
      pricePerIdentity: 0,
      monthlyLimit: 500,
    });
    expect(contract.status).toBe(201);
  });

  it('counts the month’s calls, and one made while the page is open without a reload', async () => {
    const page = await pageAs('root');
    await openHome(page);
    await expect.poll(() => figure(page, 'requests').textContent()).toBe('0');
    await page.getByTestId('home-empty').getByRole('link', { name: 'playground' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/home-root-empty-light-1280.png`, fullPage: true });

    const key = await makeKey(page, 'home e2e');
    for (let i = 0; i < 3; i++) await lookup(key.token);
    await openHome(page);
    await expect.poll(() => figure(page, 'requests').textContent()).toBe('3');
    expect(await page.getByTestId('home-empty').count()).toBe(0);
    expect(await page.getByTestId('home-sparkline-text').textContent()).toMatch(/^3 requests in the last 30 days;/);
    const listed = page.getByTestId('home-keys-list').getByRole('link', { name: /home e2e/ });
    expect(await listed.getAttribute('href')).toBe(`/keys/${key.id}`);
    await expect.poll(() => listed.textContent()).toContain('3 calls this month');

    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    await lookup(key.token);
    await expect.poll(() => figure(page, 'requests').textContent(), { timeout: 10_000 }).toBe('4');
    await expect.poll(() => listed.textContent(), { timeout: 10_000 }).toContain('4 calls this month');
    expect(await page.getByTestId('home-sparkline-text').textContent()).toMatch(/^4 requests/);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('shows a member their cost against the organization’s monthly limit', async () => {
    const page = await pageAs(MEMBER);
    const key = await makeKey(page, 'member key');
    for (let i = 0; i < 2; i++) await lookup(key.token);
    await openHome(page);
    await expect.poll(() => figure(page, 'requests').textContent()).toBe('2');
    expect(await figure(page, 'cost').textContent()).toBe('$20.00');
    expect(await page.getByTestId('limit-text').textContent()).toBe('$20.00 of $500.00 (4 %)');
    const bar = page.getByRole('progressbar', { name: 'Cost against the monthly limit' });
    expect(await bar.getAttribute('aria-valuetext')).toBe('$20.00 of $500.00 (4 %)');
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBe(4);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide, with no sideways scroll`, async () => {
        for (const who of ['root', 'member'] as const) {
          const page = await pageAs(who === 'root' ? 'root' : MEMBER, { colorScheme, width });
          await openHome(page);
          expect(await axeViolations(page)).toEqual([]);
          expect(await sidewaysScroll(page)).toEqual([]);
          await page.screenshot({ path: `${SHOTS}/home-${who}-${colorScheme}-${width}.png`, fullPage: true });
        }
      });
    }
  }
});
