/**
 * Self-serve billing (issue 32 item 10, decision 0064) by outcome: an organization's administrator keeps its billing
 * details (400 naming each field's problem, nothing written), only System Administrators set a tax rate (403),
 * another organization's billing answers 404 as a missing one, members are 403; the close copies the details onto
 * the invoice with tax and due date, and the PDF carries the seller's and the buyer's legal details.
 */
import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '@tessera/common/billing';
import { formatDay } from '@tessera/common/dates';
import { emptyMetrics } from '@tessera/common/usage';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { writeUsage } from '../usage/metering';
import { closeMonth } from './repo';

const SELLER = {
  SELLER_LEGAL_NAME: 'Tessera Data Inc.',
  SELLER_ADDRESS: '100 Main Street, Suite 5; Springfield, IL 62701; United States',
  SELLER_TAX_ID: 'EIN 12-3456789',
  SELLER_EMAIL: 'billing@tessera.example',
  SELLER_PHONE: '+1 217 555 0100',
  INVOICE_PAYMENT_DAYS: '15',
  INVOICE_PAYMENT_INSTRUCTIONS: 'Wire to First Bank, account 000123, routing 026009593.',
};

let t: TestApp;
const api = consoleClient(() => t.app);
let superCookie: string;
beforeAll(async () => {
  t = await buildTestApp({ env: SELLER });
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const DETAILS = {
  legalName: 'Acme Analytics LLC',
  street: '1 Infinite Loop',
  city: 'Cupertino',
  state: 'CA',
  zip: '95014',
  taxId: '98-7654321',
  email: 'ap@acme.example',
};

async function customer() {
  const org = await makeOrganization(t.database);
  const admin = await makeUser(t.database, 'admin', org.id);
  const member = await makeUser(t.database, 'user', org.id);
  return {
    org,
    adminId: admin.id,
    admin: await signIn(t.app, admin.email),
    member: await signIn(t.app, member.email),
  };
}

describe('PUT and GET /v2/billing/{organizationId}: 200', () => {
  it('keeps the details an administrator gives, trimmed, and says what the next invoice applies', async () => {
    const c = await customer();
    const empty = await api.get(`/v2/billing/${c.org.id}`, c.admin);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().billing).toEqual({ id: c.org.id, details: null, taxRate: null, paymentDays: 15 });

    const saved = await api.put(`/v2/billing/${c.org.id}`, c.admin, { ...DETAILS, legalName: '  Acme Analytics LLC ' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().billing.details).toMatchObject({ id: c.org.id, ...DETAILS, taxRate: null });
    expect((await api.get(`/v2/billing/${c.org.id}`, c.admin)).json().billing.details).toMatchObject(DETAILS);
    expect(await auditedOf(t.database, 'organization', c.org.id)).toEqual([
      { action: 'billing.update', actorId: c.adminId, detail: { fields: Object.keys(DETAILS) } },
    ]);

    // Blank optional fields mean none; a super sets the rate, and an administrator's later save keeps it.
    const rated = await api.put(`/v2/billing/${c.org.id}`, superCookie, { ...DETAILS, taxId: ' ', taxRate: '8.25' });
    expect(rated.json().billing).toMatchObject({ taxRate: '8.250', details: { taxId: null, taxRate: '8.250' } });
    await api.put(`/v2/billing/${c.org.id}`, c.admin, DETAILS);
    expect((await api.get(`/v2/billing/${c.org.id}`, c.admin)).json().billing.taxRate).toBe('8.250');
    const cleared = await api.put(`/v2/billing/${c.org.id}`, superCookie, { ...DETAILS, taxRate: null });
    expect(cleared.json().billing.taxRate).toBeNull();
  });
});

describe('/v2/billing/{organizationId}: 400, 401, 403, 404', () => {
  it('answers 400 naming every field problem, with the spec messages, and writes nothing', async () => {
    const c = await customer();
    await api.put(`/v2/billing/${c.org.id}`, c.admin, DETAILS);
    const bad = await api.put(`/v2/billing/${c.org.id}`, c.admin, {
      legalName: '   ',
      street: 'x'.repeat(201),
      city: '',
      state: 'ZZ',
      zip: '1234',
      taxId: '#1',
      email: 'not-an-address',
    });
    expect(bad.statusCode).toBe(400);
    const fields = Object.fromEntries(
      (bad.json().fields as { path: string; message: string }[]).map((f) => [f.path, f.message]),
    );
    expect(fields).toEqual({
      'body.legalName': BILLING_MESSAGES.legalName,
      'body.street': MESSAGES.tooLong('a street address', 200),
      'body.city': MESSAGES.required('a city'),
      'body.state': MESSAGES.state,
      'body.zip': MESSAGES.zip,
      'body.taxId': BILLING_MESSAGES.taxId,
      'body.email': MESSAGES.email,
    });
    const missing = await api.put(`/v2/billing/${c.org.id}`, superCookie, { taxRate: '100.5' });
    expect(missing.statusCode).toBe(400);
    const paths = (missing.json().fields as { path: string; message: string }[]).map((f) => f.message);
    expect(paths).toEqual(
      expect.arrayContaining([BILLING_MESSAGES.legalName, MESSAGES.state, MESSAGES.zip, BILLING_MESSAGES.taxRate]),
    );
    expect((await api.get(`/v2/billing/${c.org.id}`, c.admin)).json().billing.details).toMatchObject(DETAILS);
  });

  it('refuses a tax rate from an administrator (403), and writes nothing', async () => {
    const c = await customer();
    const res = await api.put(`/v2/billing/${c.org.id}`, c.admin, { ...DETAILS, taxRate: '0' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(BILLING_MESSAGES.taxRateStaff);
    expect((await api.get(`/v2/billing/${c.org.id}`, c.admin)).json().billing.details).toBeNull();
  });

  it('answers 404 for another organization, as for a missing one, and 403 to members', async () => {
    const mine = await customer();
    const other = await customer();
    await api.put(`/v2/billing/${other.org.id}`, other.admin, DETAILS);
    for (const res of [
      await api.get(`/v2/billing/${other.org.id}`, mine.admin),
      await api.put(`/v2/billing/${other.org.id}`, mine.admin, { ...DETAILS, legalName: 'Hijacked' }),
      await api.get('/v2/billing/2000000000', superCookie),
      await api.put('/v2/billing/2000000000', superCookie, DETAILS),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(BILLING_MESSAGES.notFound);
    }
    expect((await api.get(`/v2/billing/${other.org.id}`, other.admin)).json().billing.details.legalName).toBe(
      DETAILS.legalName,
    );
    for (const res of [
      await api.get(`/v2/billing/${mine.org.id}`, mine.member),
      await api.put(`/v2/billing/${mine.org.id}`, mine.member, DETAILS),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(BILLING_MESSAGES.forbidden);
    }
    expect((await api.get(`/v2/billing/${mine.org.id}`, '')).statusCode).toBe(401);
    expect((await api.get('/v2/billing/abc', superCookie)).statusCode).toBe(400);
  });
});

describe('an issued invoice and its PDF', () => {
  it('carries the buyer as at issue, tax at the organization rate, the due date, and every legal detail', async () => {
    const month = '1999-07';
    const c = await customer();
    await makeContract(t.database, c.org.id, {
      startsAt: new Date(Date.UTC(1999, 0, 1)),
      endsAt: new Date(Date.UTC(2000, 0, 1)),
      pricePerRequest: 0.5,
      pricePerIdentity: 1.25,
    });
    await api.put(`/v2/billing/${c.org.id}`, c.admin, DETAILS);
    await api.put(`/v2/billing/${c.org.id}`, superCookie, { ...DETAILS, taxRate: '8.25' });
    const metrics = { ...emptyMetrics(), inputs: 1, identities: 3 };
    const event = { requestId: randomUUID(), userId: c.adminId, organizationId: c.org.id, keyId: 'k', method: 'GET' };
    await writeUsage(
      t.database,
      [{ ...event, path: '/byEmail', status: 200, metrics, costMicros: 0 }],
      new Date('1999-07-14T10:00:00Z'),
    );
    await closeMonth(t.database, month, undefined, t.config.seller);
    // Details changed after issue do not change the issued invoice.
    await api.put(`/v2/billing/${c.org.id}`, c.admin, { ...DETAILS, legalName: 'Acme Renamed LLC' });

    const { invoices } = (await api.get(`/v2/invoices?month=${month}`, c.admin)).json();
    const { invoice } = (await api.get(`/v2/invoices/${invoices[0].id}`, c.admin)).json();
    expect(invoice).toMatchObject({
      subtotal: '4.250000',
      taxRate: '8.250',
      tax: '0.350625',
      total: '4.600625',
      currency: 'USD',
      buyer: DETAILS,
    });
    expect(Date.parse(invoice.dueAt) - Date.parse(invoice.issuedAt)).toBe(15 * 86_400_000);

    const pdf = await api.get(`/v2/invoices/${invoice.id}.pdf`, c.admin);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    const number = `INV-${String(invoice.number).padStart(6, '0')}`;
    for (const expected of [
      // Seller, from the configuration.
      'Tessera Data Inc.',
      '100 Main Street, Suite 5',
      'Springfield, IL 62701',
      'Tax ID: EIN 12-3456789',
      'billing@tessera.example',
      '+1 217 555 0100',
      // Buyer, as at issue.
      'Bill to',
      'Acme Analytics LLC',
      '1 Infinite Loop',
      'Cupertino, CA 95014',
      'Tax ID: 98-7654321',
      'ap@acme.example',
      // The invoice.
      `Invoice ${number}`,
      `Issue date ${formatDay(invoice.issuedAt)}`,
      `Due date ${formatDay(invoice.dueAt)}`,
      'Service period 7/1/99 to 7/31/99',
      'Currency USD (US dollars)',
      'Requests, contract #',
      'Identities returned, contract #',
      '$0.50',
      '$1.25',
      '$3.75',
      'Subtotal $4.25',
      'Tax (8.25%) $0.350625',
      'Total (USD) $4.600625',
      'Net 15 days from the issue date.',
      `Payment is due by ${formatDay(invoice.dueAt)}.`,
      'Wire to First Bank, account 000123, routing 026009593.',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Acme Renamed LLC');
  });

  it('says so when no tax rate applies and no billing details were given', async () => {
    const month = '1999-08';
    const c = await customer();
    await makeContract(t.database, c.org.id, {
      startsAt: new Date(Date.UTC(1999, 0, 1)),
      endsAt: new Date(Date.UTC(2000, 0, 1)),
    });
    await closeMonth(t.database, month, undefined, t.config.seller);
    const { invoices } = (await api.get(`/v2/invoices?month=${month}`, c.admin)).json();
    expect(invoices[0]).toMatchObject({ taxRate: null, tax: '0.000000', buyer: null });
    const pdf = await api.get(`/v2/invoices/${invoices[0].id}.pdf`, c.admin);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Tax (none: no tax rate applies) $0.00');
    expect(text).toContain('No billing details were on file when this invoice was issued.');
    expect(text).toContain(c.org.name);
  });
});
