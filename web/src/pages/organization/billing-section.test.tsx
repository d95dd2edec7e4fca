/**
 * The billing section of an organization's page (issue 32 item 10): the plan and this month so far in the one
 * money and date format, the billing details form with the spec §5 messages, and what a save sends by rank.
 */
import type { BillingOverview } from '@tessera/common/billing';
import type { Contract } from '@tessera/common/contracts';
import type { Invoice } from '@tessera/common/invoices';
import { MESSAGES } from '@tessera/common/validation';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { planText, shareOfLimit } from './month-to-date';
import OrganizationPage from './organization-page';

setupPageTests();

const ACME = { id: 3, name: 'Acme', emailDomain: 'acme.test', acceptUsers: true, createdAt: '', updatedAt: '' };
const year = new Date().getUTCFullYear();
const CONTRACT: Contract = {
  id: 9,
  organizationId: 3,
  name: 'Launch terms',
  startsAt: `${year - 1}-01-01T00:00:00.000Z`,
  endsAt: `${year + 1}-01-01T00:00:00.000Z`,
  status: 'active',
  pricePerRequest: 0.25,
  pricePerIdentity: 0.0125,
  groupPrices: { emails: 0.005 },
  monthlyLimit: 100,
  rateLimit: null,
  pricePerEvent: 0,
  subscriptionLimit: null,
  createdAt: '',
  updatedAt: '',
};
const month = new Date().toISOString().slice(0, 7);
const DRAFT: Invoice = {
  id: 0,
  organizationId: 3,
  organizationName: 'Acme',
  month,
  number: null,
  status: 'draft',
  subtotal: '12.500000',
  taxRate: null,
  tax: '0.000000',
  total: '12.500000',
  currency: 'USD',
  issuedAt: null,
  dueAt: null,
  paidAt: null,
  voidedAt: null,
  buyer: null,
  lines: [
    {
      contractId: 9,
      price: 'request',
      periodStart: `${month}-01T00:00:00.000Z`,
      periodEnd: '',
      quantity: 50,
      unitPrice: '0.250000',
      amount: '12.500000',
    },
  ],
};
const ISSUED: Invoice = {
  ...DRAFT,
  id: 4,
  month: '2026-02',
  number: 42,
  status: 'issued',
  issuedAt: '2026-03-01T00:05:00.000Z',
  dueAt: '2026-03-31T00:05:00.000Z',
  lines: [],
};
const NONE: BillingOverview = { id: 3, details: null, taxRate: null, paymentDays: 30 };

beforeEach(() => {
  network.on('GET /v2/keys', { body: { keys: {} } });
  network.on('GET /v2/organizations/3', { body: { organizations: { 3: ACME }, users: {} } });
  network.on('GET /v2/contracts', { body: { contracts: { 9: CONTRACT } } });
  network.on('GET /v2/invoices', { body: { invoices: [ISSUED], total: 1, months: [] } });
  network.on('GET /v2/invoices/draft', { body: { invoice: DRAFT } });
  // The server keeps what a PUT saves, and a GET answers it.
  let billing: BillingOverview = NONE;
  network.on('GET /v2/billing/3', () => ({ body: { billing } }));
  network.on('PUT /v2/billing/3', (call) => {
    const details = { id: 3, taxRate: null, updatedAt: '2026-03-02T10:00:00.000Z', ...(call.body as object) };
    billing = { ...NONE, details: details as BillingOverview['details'] };
    return { body: { billing } };
  });
});

const open = () => renderPage(<OrganizationPage {...({ resource: { mode: 'view', ids: [3] } } as PageProps)} />);
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('billing section', () => {
  it('shows an administrator the plan, this month so far against the limit, and the invoices', async () => {
    signIn(user(1, 'admin', 3));
    open();
    const section = await screen.findByRole('region', { name: 'Billing' });
    await within(section).findByTestId('plan');
    await waitFor(() => expect(within(section).getByTestId('plan').textContent).toContain('Launch terms'));
    expect(within(section).getByTestId('plan').textContent).toContain(
      '$0.25 a request, $0.0125 per identity returned, $0.005 per identity with emails; a monthly limit of $100.00.',
    );
    expect(within(section).getByTestId('limit-used').textContent).toBe(
      '$12.50 of the $100.00 monthly limit used (12%).',
    );
    expect(within(section).getByTestId('usage-line').textContent).toBe('Requests50$0.25$12.50');
    expect(within(section).getByTestId('invoice-draft').textContent).toBe('$12.50');
    const row = within(section).getByTestId('invoice-row');
    expect([...row.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)).toEqual([
      'INV-000042',
      'February 2026',
      '3/1/26',
      '3/31/26',
      'Issued',
      '$12.50',
    ]);
    within(section).getByRole('button', { name: 'Download INV-000042 as PDF' });
    within(section).getByRole('button', { name: 'Download INV-000042 as CSV' });
  });

  it('checks the billing details with the spec messages, then saves them without a tax rate', async () => {
    signIn(user(1, 'admin', 3));
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Add billing details' }));
    expect(screen.queryByLabelText('Tax rate (%)')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save billing details' }));
    await screen.findByText('Validation failed.');
    expect(screen.getAllByText(MESSAGES.required('a legal name')).length).toBeGreaterThan(0);
    expect(screen.getAllByText(MESSAGES.state).length).toBeGreaterThan(0);
    expect(network.calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(field('Legal name'), { target: { value: 'Acme Analytics LLC' } });
    fireEvent.change(field('Street address'), { target: { value: '1 Infinite Loop' } });
    fireEvent.change(field('City'), { target: { value: 'Cupertino' } });
    fireEvent.change(field('Zip code'), { target: { value: '9501' } });
    fireEvent.blur(field('Zip code'));
    await screen.findAllByText(MESSAGES.zip);
    fireEvent.change(field('Zip code'), { target: { value: '95014' } });
    fireEvent.change(field('Tax ID'), { target: { value: '#1' } });
    fireEvent.blur(field('Tax ID'));
    await screen.findAllByText(/Please provide a tax ID/);
    fireEvent.change(field('Tax ID'), { target: { value: '98-7654321' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'State' }));
    fireEvent.click(await screen.findByRole('option', { name: /^CA/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save billing details' }));
    await screen.findByText('Billing details saved. Invoices issued from now on carry them.');
    expect(network.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      legalName: 'Acme Analytics LLC',
      street: '1 Infinite Loop',
      city: 'Cupertino',
      state: 'CA',
      zip: '95014',
      taxId: '98-7654321',
      email: null,
    });
    expect(screen.getByText('1 Infinite Loop, Cupertino, CA 95014')).toBeTruthy();
  });

  it('lets a System Administrator set the tax rate, checked as a percentage', async () => {
    network.on('GET /v2/billing/3', {
      body: {
        billing: {
          ...NONE,
          taxRate: '8.250',
          details: {
            id: 3,
            legalName: 'Acme Analytics LLC',
            street: '1 Infinite Loop',
            city: 'Cupertino',
            state: 'CA',
            zip: '95014',
            taxId: null,
            email: null,
            taxRate: '8.250',
            updatedAt: '2026-03-02T10:00:00.000Z',
          },
        },
      },
    });
    signIn(user(1, 'super', null));
    open();
    await screen.findByText('8.25%');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit billing details' }));
    expect(field('Tax rate (%)').value).toBe('8.25');
    fireEvent.change(field('Tax rate (%)'), { target: { value: '101' } });
    fireEvent.blur(field('Tax rate (%)'));
    await screen.findByText('Please provide a tax rate from 0 to 100 percent with at most three decimals.');
    fireEvent.change(field('Tax rate (%)'), { target: { value: '7.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() =>
      expect(network.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({ taxRate: '7.5' }),
    );
  });
});

describe('plan helpers', () => {
  it('words the plan and the share of the limit exactly', () => {
    expect(planText({ ...CONTRACT, groupPrices: {}, monthlyLimit: null })).toBe(
      '$0.25 a request, $0.0125 per identity returned; no monthly limit.',
    );
    expect(shareOfLimit('99.999999', 100)).toBe(99);
    expect(shareOfLimit('100.000000', 100)).toBe(100);
    expect(shareOfLimit('1.000000', 0)).toBe(100);
    expect(shareOfLimit('1.000000', null)).toBeNull();
  });
});
