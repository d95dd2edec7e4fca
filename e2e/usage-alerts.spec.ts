/**
 * Usage alerts in Chromium against the real server (issue 16, decision 0029): an organization's administrator sets
 * the shares of the monthly limit on the organization's page, calls are made with their key, and when the spend
 * crosses a share the alert appears in their console and in the page's recent alerts, without a reload; the page
 * passes WCAG 2.1 AA in light and dark.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);

const DAY = 86_400_000;

async function made<T>(page: Page, method: string, path: string, body: unknown): Promise<T> {
  const res = await callApi(page, method, path, body);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}
const first = <T>(keyed: Record<string, T>) => Object.values(keyed)[0]!;

/**
 * Root makes an organization whose calls cost $0.001 against a $0.01 monthly limit, and its administrator, then
 * acts as that administrator from the user's page (as support staff would).
 */
async function administratorOfNewOrganization(colorScheme: 'light' | 'dark') {
  const page = await openAs('root', { colorScheme });
  const name = `Alerts ${colorScheme} ${randomUUID().slice(0, 6)}`;
  const org = first(
    (await made<{ organizations: Record<string, { id: number }> }>(page, 'POST', '/v2/organizations', { name }))
      .organizations,
  );
  await made(page, 'POST', '/v2/contracts', {
    organizationId: org.id,
    startsAt: new Date(Date.now() - DAY).toISOString(),
    endsAt: new Date(Date.now() + 365 * DAY).toISOString(),
    pricePerRequest: 0.001,
    pricePerIdentity: 0,
    monthlyLimit: 0.01,
  });
  const admin = first(
    (
      await made<{ users: Record<string, { id: number }> }>(page, 'POST', '/v2/users', {
        email: `ada-${randomUUID()}@tessera.test`,
        name: 'Ada Admin',
        role: 'admin',
        organizationId: org.id,
      })
    ).users,
  );
  await page.goto(`${env.server.url}/users/${admin.id}`);
  await page.getByRole('button', { name: 'Impersonate' }).click();
  await page.waitForURL(`${env.server.url}/`);
  await page.getByText('Signed in as Ada Admin (Organization Administrator', { exact: false }).waitFor();
  return { page, org, name };
}

describe('usage alerts (issue 16)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`are set on the organization page and appear in the console when a share is crossed (${colorScheme})`, async () => {
      const { page, org, name } = await administratorOfNewOrganization(colorScheme);
      const created = await made<{ keys: Record<string, { id: string; secret: string }> }>(page, 'POST', '/v2/keys', {
        name: 'alerts e2e',
      });
      const key = first(created.keys);
      const lookup = async () => {
        const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=${randomUUID()}@nobody.example`, {
          headers: { authorization: `Bearer ${key.id}${key.secret}` },
        });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
      };

      await page.goto(`${env.server.url}/organizations/${org.id}`);
      const section = page.getByRole('region', { name: 'Usage Alerts' });
      const shares = section.getByLabel('Shares of the monthly limit (%)');
      await expect.poll(() => shares.inputValue()).toBe('80, 100');
      await section.getByText('No usage alerts have fired yet.').waitFor();
      await shares.fill('20, 100');
      await section.getByRole('button', { name: 'Save Alerts' }).click();
      await page.getByTestId('alert-stack').getByText('Usage Alerts Saved').waitFor();
      expect(await shares.inputValue()).toBe('20, 100');
      await page.getByTestId('alert-stack').getByRole('button', { name: 'Close' }).click();

      await lookup(); // $0.001: 10 %
      await lookup(); // $0.002: 20 %
      const stack = page.getByTestId('alert-stack');
      const title = 'Usage alert: 20% of the monthly limit';
      await stack.getByText(title).waitFor({ timeout: 15_000 });
      await stack.getByText(`${name} has spent $0.002 of its $0.01 monthly limit`, { exact: false }).waitFor();
      // The page's list follows the push, without a reload.
      await expect.poll(() => section.getByTestId('usage-alert-row').count(), { timeout: 10_000 }).toBe(1);
      expect(await section.getByTestId('usage-alert-row').textContent()).toContain('20% of the monthly limit');

      expect(await axeViolations(page)).toEqual([]);
      const dir = process.env.SCREENSHOT_DIR;
      if (dir) await page.screenshot({ path: `${dir}/usage-alerts-${colorScheme}.png`, fullPage: true });

      // Another call crosses 20 % again: no second alert of it.
      await page.getByTestId('alert-stack').getByRole('button', { name: 'Close' }).click();
      await lookup();
      const settled = await made<{ usageAlerts: { firings: unknown[] } }>(
        page,
        'GET',
        `/v2/organizations/${org.id}/usage-alerts`,
        undefined,
      );
      expect(settled.usageAlerts.firings).toHaveLength(1);
      expect(await stack.getByText(title).count()).toBe(0);
    });
  }
});
