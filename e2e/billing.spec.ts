/**
 * Billing in the console (issue 19) in Chromium against the real server: root writes a contract for a new
 * organization, closes last month on /billing, finds the organization's invoice, downloads it as PDF and CSV (the
 * test reads both files), marks it paid, and the page passes WCAG 2.1 AA light and dark, wide and narrow.
 */
import { readFileSync } from 'node:fs';
import { formatMonth } from '@tessera/common/dates';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);
const rootPage = (options: PageOptions = {}) => openAs('root', options);

const NAME = 'Billing E2E Ltd';
const lastMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

async function download(page: Page, button: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const bytes = readFileSync((await file.path())!);
  return { name: file.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

describe('billing (issue 19)', () => {
  it('issues an invoice at the close of a month and downloads it as PDF and CSV', async () => {
    const page = await rootPage();
    const made = await callApi(page, 'POST', '/v2/organizations', { name: NAME });
    const org = Object.values((made.body as { organizations: Record<string, { id: number }> }).organizations)[0]!;
    const contract = await callApi(page, 'POST', '/v2/contracts', {
      organizationId: org.id,
      name: 'E2E',
      startsAt: '2020-01-01T00:00:00.000Z',
      endsAt: '2099-01-01T00:00:00.000Z',
      status: 'active',
      pricePerRequest: 0.001,
      pricePerIdentity: 0.01,
    });
    expect(contract.status).toBeLessThan(300);

    await page.goto(`${env.server.url}/billing`);
    expect(await page.getByLabel('Month to close').inputValue()).toBe(lastMonth());
    await page.getByRole('button', { name: 'Close month' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /issued for/ })
      .waitFor();

    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: NAME, exact: true }).click();
    await expect.poll(() => page.getByTestId('invoice-row').count()).toBe(1);
    const row = page.getByTestId('invoice-row');
    const number = (await row.locator('td').first().textContent())!;
    expect(number).toMatch(/^INV-\d{6}$/);

    const pdf = await download(page, `Download ${number} as PDF`);
    expect(pdf.name).toBe(`${number.toLowerCase()}-${lastMonth()}.pdf`);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await download(page, `Download ${number} as CSV`);
    expect(csv.name).toBe(`${number.toLowerCase()}-${lastMonth()}.csv`);
    const lines = csv.text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'invoice,month,organization,contract,price,period_start,period_end,quantity,unit_price,amount',
    );
    // Money and months in the console's one format (decision 0064).
    expect(lines.at(-1)).toBe(`${number},${formatMonth(lastMonth())},${NAME},,total,,,,,$0.00`);

    await page.getByRole('button', { name: `Mark paid: ${number}` }).click();
    await expect.poll(() => row.locator('td').nth(5).textContent()).toBe('Paid');

    // The organization's page lists it too, with this month's running draft.
    await page.goto(`${env.server.url}/organizations/${org.id}`);
    await page.getByTestId('invoice-draft').waitFor();
    expect(await page.getByTestId('invoice-draft').textContent()).toBe('$0.00');
    expect(await page.getByTestId('invoice-row').locator('td').first().textContent()).toBe(number);
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await rootPage({ colorScheme, width });
        await page.goto(`${env.server.url}/billing`);
        await page.getByTestId('invoice-row').first().waitFor();
        expect(await axeViolations(page)).toEqual([]);
        if (width === 1280) expect(await sidewaysScroll(page)).toEqual([]);
        const dir = process.env.SCREENSHOT_DIR;
        if (dir) await page.screenshot({ path: `${dir}/billing-${colorScheme}-${width}.png`, fullPage: true });
      });
    }
  }
});
