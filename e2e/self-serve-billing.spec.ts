/**
 * Self-serve billing (issue 32 item 10, decision 0064) in Chromium against the real server with a configured
 * seller: an Organization Administrator sees the plan and this month so far on their organization's page, gives
 * the billing details (refused field by field first), and after the month's close downloads the invoice as PDF (the
 * test reads its text: the seller's and the buyer's legal details) and CSV; a member has no billing. The section
 * passes WCAG 2.1 AA light and dark, wide and narrow, with the details form open and showing its errors.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { formatDay, formatMonth } from '@tessera/common/dates';
import { pdfText } from '@tessera/server/test/pdf-text';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const SELLER = {
  SELLER_LEGAL_NAME: 'Tessera Data Inc.',
  SELLER_ADDRESS: '100 Main Street, Suite 5; Springfield, IL 62701',
  SELLER_TAX_ID: 'EIN 12-3456789',
  SELLER_EMAIL: 'billing@tessera.example',
  INVOICE_PAYMENT_DAYS: '15',
};
const env = useServerAndBrowser({ env: SELLER });
const openAs = usePages(env);

const lastMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};
const first = <T>(keyed: Record<string, T>) => Object.values(keyed)[0]!;

async function made<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const res = await callApi(page, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let organizationId = 0;
let adminId = 0;
let memberId = 0;

beforeAll(async () => {
  const page = await openAs('root');
  const org = first(
    (
      await made<{ organizations: Record<string, { id: number }> }>(page, 'POST', '/v2/organizations', {
        name: `Self Serve ${randomUUID().slice(0, 6)}`,
      })
    ).organizations,
  );
  organizationId = org.id;
  await made(page, 'POST', '/v2/contracts', {
    organizationId,
    name: 'Growth plan',
    startsAt: '2020-01-01T00:00:00.000Z',
    endsAt: '2099-01-01T00:00:00.000Z',
    status: 'active',
    pricePerRequest: 0.25,
    pricePerIdentity: 0.0125,
    monthlyLimit: 100,
  });
  const user = async (role: string) =>
    first(
      (
        await made<{ users: Record<string, { id: number }> }>(page, 'POST', '/v2/users', {
          email: `${role}-${randomUUID()}@selfserve.test`,
          name: role === 'admin' ? 'Ada Admin' : 'Mo Member',
          role,
          organizationId,
        })
      ).users,
    ).id;
  adminId = await user('admin');
  memberId = await user('user');
});

/** A page signed in as root acting as `userId` (an Organization Administrator or User), on the organization. */
async function pageAs(userId: number, options: PageOptions = {}): Promise<Page> {
  const page = await openAs('root', options);
  await made(page, 'PUT', `/auth/impersonate/${userId}`);
  await page.goto(`${env.server.url}/organizations/${organizationId}#billing`);
  return page;
}

async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

describe('self-serve billing (issue 32 item 10)', () => {
  it('an administrator gives the billing details, then reads and downloads the invoice with them', async () => {
    const page = await pageAs(adminId);
    const billing = page.getByRole('region', { name: 'Billing', exact: true });
    await billing.getByTestId('plan').getByText('Growth plan').waitFor();
    expect(await billing.getByTestId('plan').textContent()).toContain(
      '$0.25 a request, $0.0125 per identity returned; a monthly limit of $100.00.',
    );
    expect(await billing.getByTestId('limit-used').textContent()).toBe('$0.00 of the $100.00 monthly limit used (0%).');
    expect(await billing.getByTestId('invoice-draft').textContent()).toBe('$0.00');

    // Refused field by field, then saved.
    await billing.getByRole('button', { name: 'Add billing details' }).click();
    await billing.getByLabel('Zip code').fill('123');
    await billing.getByRole('button', { name: 'Save billing details' }).click();
    await page.getByText('Validation failed.').waitFor();
    await billing.getByText('Please provide a 5-digit zip code.').first().waitFor();
    await billing.getByText('Please provide a legal name.').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'self-serve-billing-errors-light-1280');
    await billing.getByLabel('Legal name').fill('Acme Analytics LLC');
    await billing.getByLabel('Street address').fill('1 Infinite Loop');
    await billing.getByLabel('City').fill('Cupertino');
    await billing.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: /^CA/ }).click();
    await billing.getByLabel('Zip code').fill('95014');
    await billing.getByLabel('Tax ID').fill('98-7654321');
    await billing.getByLabel('Send invoices to').fill('ap@acme.example');
    await billing.getByRole('button', { name: 'Save billing details' }).click();
    await billing.getByText('Billing details saved. Invoices issued from now on carry them.').waitFor();
    await billing.getByText('1 Infinite Loop, Cupertino, CA 95014').waitFor();

    // Last month closes (a System Administrator's step), and the invoice is the administrator's to read.
    const root = await openAs('root');
    await made(root, 'POST', '/v2/invoices/close', { month: lastMonth() });
    await page.reload();
    const row = billing.getByTestId('invoice-row');
    await row.first().waitFor();
    const number = (await row.first().locator('td').first().textContent())!;
    expect(number).toMatch(/^INV-\d{6}$/);
    const cells = await row.first().locator('td').allTextContents();
    expect(cells.slice(1, 6)).toEqual([
      formatMonth(lastMonth()),
      expect.any(String),
      expect.any(String),
      'Issued',
      '$0.00',
    ]);

    const pdf = await download(page, `Download ${number} as PDF`);
    expect(pdf.name).toBe(`${number.toLowerCase()}-${lastMonth()}.pdf`);
    const text = await pdfText(pdf.bytes);
    const { invoices } = await made<{ invoices: { issuedAt: string; dueAt: string }[] }>(
      page,
      'GET',
      `/v2/invoices?organizationId=${organizationId}`,
    );
    for (const expected of [
      'Tessera Data Inc.',
      '100 Main Street, Suite 5',
      'Springfield, IL 62701',
      'Tax ID: EIN 12-3456789',
      'billing@tessera.example',
      'Acme Analytics LLC',
      '1 Infinite Loop',
      'Cupertino, CA 95014',
      'Tax ID: 98-7654321',
      'ap@acme.example',
      `Invoice ${number}`,
      `Issue date ${formatDay(invoices[0]!.issuedAt)}`,
      `Due date ${formatDay(invoices[0]!.dueAt)}`,
      'Service period',
      'Currency USD (US dollars)',
      'Subtotal $0.00',
      'Tax (none: no tax rate applies) $0.00',
      'Total (USD) $0.00',
      'Net 15 days from the issue date.',
    ]) {
      expect(text, expected).toContain(expected);
    }

    const csv = await download(page, `Download ${number} as CSV`);
    expect(csv.name).toBe(`${number.toLowerCase()}-${lastMonth()}.csv`);
    const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(
      'invoice,month,organization,contract,price,period_start,period_end,quantity,unit_price,amount',
    );
    expect(lines.at(-1)).toMatch(new RegExp(`^${number},${formatMonth(lastMonth())},.*,,total,,,,,\\$0\\.00$`));
  });

  it('a member has no billing: no section on the page, and the server refuses', async () => {
    const page = await pageAs(memberId);
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByRole('region', { name: 'Billing', exact: true }).count()).toBe(0);
    expect((await callApi(page, 'GET', `/v2/billing/${organizationId}`)).status).toBe(403);
    expect((await callApi(page, 'GET', `/v2/invoices?organizationId=${organizationId}`)).status).toBe(403);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide, with the details form open`, async () => {
        const page = await pageAs(adminId, { colorScheme, width });
        const billing = page.getByRole('region', { name: 'Billing', exact: true });
        await billing.getByTestId('invoice-row').first().waitFor();
        expect(await axeViolations(page)).toEqual([]);
        if (width === 1280) expect(await sidewaysScroll(page)).toEqual([]);
        await billing.scrollIntoViewIfNeeded();
        await screenshot(page, `self-serve-billing-${colorScheme}-${width}`);
        await billing.getByRole('button', { name: 'Edit billing details' }).click();
        await billing.getByLabel('Legal name').fill(' ');
        await billing.getByLabel('Tax ID').fill('#');
        await billing.getByRole('button', { name: 'Save billing details' }).click();
        await page.getByText('Validation failed.').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `self-serve-billing-form-${colorScheme}-${width}`);
      });
    }
  }
});
