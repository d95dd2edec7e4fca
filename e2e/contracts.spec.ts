/**
 * Contract pages in Chromium against the real server (issue 19, decision 0033): a system administrator writes a
 * contract for an organization on its page, a call made with an API key of that organization is priced by it at
 * once, a change applies to the next call and shows in the history; the view and the editor pass WCAG 2.1 AA in
 * light and dark.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);

async function made<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const res = await callApi(page, method, path, body);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}
const first = <T>(keyed: Record<string, T>) => Object.values(keyed)[0]!;

const rootPage = (colorScheme: 'light' | 'dark') => openAs('root', { colorScheme });

async function screenshots(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}-wide.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-narrow.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A member of the organization makes a key (root acting as them), then root is back. */
async function keyOfMember(page: Page, organizationId: number) {
  const member = first(
    (
      await made<{ users: Record<string, { id: number }> }>(page, 'POST', '/v2/users', {
        email: `mo-${randomUUID()}@tessera.test`,
        name: 'Mo Member',
        role: 'user',
        organizationId,
      })
    ).users,
  );
  await page.goto(`${env.server.url}/users/${member.id}`);
  await page.getByRole('button', { name: 'Impersonate' }).click();
  await page.waitForURL(`${env.server.url}/`);
  const key = first(
    (
      await made<{ keys: Record<string, { id: string; secret: string }> }>(page, 'POST', '/v2/keys', {
        name: 'contract e2e',
      })
    ).keys,
  );
  await made(page, 'PUT', '/auth/stopImpersonating');
  return key;
}

describe('contract pages (issue 19)', () => {
  it('a contract written on the console prices the organization’s next call, and a change the one after', async () => {
    const page = await rootPage('light');
    const org = first(
      (
        await made<{ organizations: Record<string, { id: number }> }>(page, 'POST', '/v2/organizations', {
          name: `Contracted ${randomUUID().slice(0, 6)}`,
        })
      ).organizations,
    );
    const key = await keyOfMember(page, org.id);
    const lookup = async () => {
      const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=${randomUUID()}@nobody.example`, {
        headers: { authorization: `Bearer ${key.id}${key.secret}` },
      });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await lookup()).toBe(402); // no contract yet

    await page.goto(`${env.server.url}/organizations/${org.id}`);
    const section = page.getByRole('region', { name: 'Contracts' });
    await section.getByText('This organization has no contracts.').waitFor();
    await section.getByRole('link', { name: 'Add contract' }).click();
    await page.waitForURL(`${env.server.url}/contracts/add/${org.id}`);
    await page.getByLabel('Name').fill('Launch terms');
    const perRequest = page.getByLabel('Price per request');
    await perRequest.fill('0.1234567');
    await perRequest.blur();
    await page.getByText('Please provide a price from 0 to 1,000,000 with at most six decimals.').waitFor();
    await perRequest.fill('abc');
    await page.getByText('Please provide a valid number.').waitFor();
    await perRequest.fill('0.25');
    await page.getByLabel('Monthly limit').fill('100');
    await page.getByLabel('Rate limit (requests a minute)').fill('600');
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'contract-add-light');
    await page.getByRole('button', { name: 'Create Contract' }).click();
    await page.waitForURL(/\/contracts\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('page-title').getByText('Launch terms').waitFor();
    await page.getByTestId('in-force').waitFor();
    await page.getByText('$0.00 of $100.00 spent', { exact: false }).waitFor();

    // Priced by it at once: one call at $0.25 a request.
    expect(await lookup()).toBe(200);
    await page.reload();
    await page.getByText('$0.25 of $100.00 spent', { exact: false }).waitFor();

    // A change applies to the next call, and the history says who changed what.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${env.server.url}/contracts/edit/${id}`);
    await expect.poll(() => page.getByLabel('Price per request').inputValue()).toBe('0.25');
    await page.getByLabel('Price per request').fill('0.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${env.server.url}/contracts/${id}`);
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('Price per request: $0.25 → $0.50').waitFor();
    expect(await history.getByTestId('history-row').count()).toBe(2);
    expect(await lookup()).toBe(200);
    await page.reload();
    await page.getByText('$0.75 of $100.00 spent', { exact: false }).waitFor();
    const spend = await made<{ contractSpend: Record<string, { spent: string }> }>(page, 'GET', `/v2/contracts/${id}`);
    expect(spend.contractSpend[id]!.spent).toBe('0.750000');
    await screenshots(page, 'contract-view-light');

    // The organization's page lists it, marked as the one in force.
    await page.goto(`${env.server.url}/organizations/${org.id}`);
    const row = page.getByRole('region', { name: 'Contracts' }).getByTestId('contract-row');
    await row.getByTestId('in-force').waitFor();
    expect(await row.getByRole('link', { name: 'Launch terms' }).getAttribute('href')).toBe(`/contracts/${id}`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'organization-contracts-light');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`the view and the editor pass WCAG 2.1 AA (${colorScheme})`, async () => {
      const page = await rootPage(colorScheme);
      const org = first(
        (
          await made<{ organizations: Record<string, { id: number }> }>(page, 'POST', '/v2/organizations', {
            name: `Axe ${colorScheme} ${randomUUID().slice(0, 6)}`,
          })
        ).organizations,
      );
      const contract = first(
        (
          await made<{ contracts: Record<string, { id: number }> }>(page, 'POST', '/v2/contracts', {
            organizationId: org.id,
            name: 'Checked',
            startsAt: new Date(Date.now() - 86_400_000).toISOString(),
            endsAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
            pricePerRequest: '0.001',
            groupPrices: { phones: '0.05' },
            monthlyLimit: '10',
          })
        ).contracts,
      );
      await made(page, 'PUT', `/v2/contracts/${contract.id}`, { status: 'suspended' });
      await page.goto(`${env.server.url}/contracts/${contract.id}`);
      await page.getByRole('region', { name: 'History' }).getByText('Status: Active → Suspended').waitFor();
      await page.getByTestId('spend-text').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshots(page, `contract-view-${colorScheme}`);
      await page.goto(`${env.server.url}/contracts/edit/${contract.id}`);
      await expect.poll(() => page.getByLabel('Price: phones').inputValue()).toBe('0.05');
      // A failed submit shows the §5 banner and every field's message.
      await page.getByLabel('Price per identity returned').fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Validation failed.').waitFor();
      await page.getByText('Please provide a price per identity.').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshots(page, `contract-edit-${colorScheme}`);
    });
  }
});
