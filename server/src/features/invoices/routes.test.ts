/**
 * /v2/invoices by outcome and rank (decisions 0034, 0064): a month's invoices hold the sums of the organization's
 * usage rows, priced exactly; the close is idempotent, also run twice at once; numbers have no gaps;
 * administrators read only their organization's invoices (another's is 404, as a missing one); members are 403.
 */
import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '@tessera/common/billing';
import { INVOICE_MESSAGES } from '@tessera/common/invoices';
import { emptyMetrics } from '@tessera/common/usage';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { writeUsage } from '../usage/metering';
import { closeMonth } from './repo';

let t: TestApp;
const api = consoleClient(() => t.app);
let superCookie: string;
let superId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const staff = await makeUser(t.database, 'super');
  superId = staff.id;
  superCookie = await signIn(t.app, staff.email);
});
afterAll(() => t.app.close());

/** A month of its own for each test (years before any other test's contracts). */
let year = 2001;
const freshMonth = () => `${year++}-03`;

async function customer(month: string) {
  const org = await makeOrganization(t.database);
  const y = Number(month.slice(0, 4));
  await makeContract(t.database, org.id, {
    startsAt: new Date(Date.UTC(y - 1, 0, 1)),
    endsAt: new Date(Date.UTC(y + 1, 0, 1)),
    pricePerRequest: 0.001,
    pricePerIdentity: 0.0125,
    groupPrices: { emails: 0.005 },
  });
  const admin = await makeUser(t.database, 'admin', org.id);
  const member = await makeUser(t.database, 'user', org.id);
  return { org, adminId: admin.id, admin: await signIn(t.app, admin.email), member: await signIn(t.app, member.email) };
}

async function use(organizationId: number, userId: number, at: string, identities: number, emails: number) {
  const metrics = { ...emptyMetrics(), inputs: 1, identities, identitiesWithEmails: emails };
  const event = {
    requestId: randomUUID(),
    userId,
    organizationId,
    keyId: 'k',
    method: 'GET',
    path: '/byEmail',
    status: 200,
    metrics,
    costMicros: 0,
  };
  await writeUsage(t.database, [event], new Date(at));
}

describe('POST /v2/invoices/close and GET /v2/invoices/{id}: 200', () => {
  it('issues an invoice whose quantities are the sums of the month usage rows, priced exactly', async () => {
    const month = freshMonth();
    const c = await customer(month);
    const y = month.slice(0, 4);
    await use(c.org.id, c.adminId, `${y}-03-01T00:00:00Z`, 3, 1);
    await use(c.org.id, c.adminId, `${y}-03-15T12:30:00Z`, 7, 2);
    await use(c.org.id, c.adminId, `${y}-03-31T23:59:59Z`, 0, 0);
    await use(c.org.id, c.adminId, `${y}-04-01T00:00:00Z`, 100, 100); // next month
    await use(c.org.id, c.adminId, `${y}-02-28T23:59:59Z`, 100, 100); // last month

    const closed = await api.post('/v2/invoices/close', superCookie, { month });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().issued).toBeGreaterThanOrEqual(1);
    expect(await auditedOf(t.database, 'invoice-month', month)).toEqual([
      { action: 'invoice.close', actorId: superId, detail: { issued: closed.json().ids } },
    ]);
    const list = (await api.get(`/v2/invoices?month=${month}&organizationId=${c.org.id}`, superCookie)).json();
    expect(list.total).toBe(1);
    const res = await api.get(`/v2/invoices/${list.invoices[0].id}`, superCookie);
    expect(res.statusCode).toBe(200);
    const { invoice } = res.json();

    const [sums] = await t.database.query<{ requests: number; identities: number; emails: number }>(
      `select count(*)::int as requests, sum(identities)::int as identities, sum(identities_with_emails)::int as emails
       from usage where organization_id = $1 and at >= $2::timestamptz and at < $3::timestamptz`,
      [c.org.id, `${y}-03-01T00:00:00Z`, `${y}-04-01T00:00:00Z`],
    );
    expect(sums).toEqual({ requests: 3, identities: 10, emails: 3 });
    const q = Object.fromEntries(invoice.lines.map((l: { price: string; quantity: number }) => [l.price, l.quantity]));
    expect(q).toEqual({ request: sums!.requests, identity: sums!.identities, emails: sums!.emails });
    expect(invoice.lines.map((l: { amount: string }) => l.amount)).toEqual(['0.003000', '0.125000', '0.015000']);
    expect(invoice).toMatchObject({ organizationId: c.org.id, month, status: 'issued', total: '0.143000' });
    expect(invoice.lines[0]).toMatchObject({
      periodStart: `${y}-03-01T00:00:00.000Z`,
      periodEnd: `${y}-04-01T00:00:00.000Z`,
      unitPrice: '0.001000',
    });
  });

  it('leaves nothing issued when what is written alongside the close fails (its audit entry)', async () => {
    const month = freshMonth();
    const c = await customer(month);
    await use(c.org.id, c.adminId, `${month}-10T00:00:00Z`, 2, 0);
    const failing = closeMonth(t.database, month, async (_tx, issued) => {
      expect(issued).toHaveLength(1);
      throw new Error('the audit log refused the entry');
    });
    await expect(failing).rejects.toThrow('the audit log refused the entry');
    const [left] = await t.database.query<{ n: number }>('select count(*)::int as n from invoices where month = $1', [
      month,
    ]);
    expect(left!.n).toBe(0);
    // The next close issues it.
    expect((await closeMonth(t.database, month)).issued).toHaveLength(1);
  });

  it('issues nothing new when run again, or twice at once, and numbers every invoice without gaps', async () => {
    const month = freshMonth();
    const orgs = await Promise.all([customer(month), customer(month), customer(month)]);
    const [a, b] = await Promise.all([closeMonth(t.database, month), closeMonth(t.database, month)]);
    expect([a.issued.length, b.issued.length].sort()).toEqual([0, 3]);
    expect((await closeMonth(t.database, month)).issued).toEqual([]);
    const again = await api.post('/v2/invoices/close', superCookie, { month });
    expect(again.json().issued).toBe(0);
    const rows = await t.database.query<{ organization_id: number; n: number }>(
      'select organization_id, count(*)::int as n from invoices where month = $1 group by organization_id',
      [month],
    );
    expect(rows.map((r) => r.organization_id).sort()).toEqual(orgs.map((o) => o.org.id).sort());
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const [n] = await t.database.query<{ count: number; min: number; max: number }>(
      'select count(number)::int as count, min(number) as min, max(number) as max from invoices',
    );
    expect(n).toEqual({ count: n!.max, min: 1, max: n!.max });
  });

  it('downloads the invoice as a PDF holding its number and as an exact CSV', async () => {
    const month = freshMonth();
    const c = await customer(month);
    await use(c.org.id, c.adminId, `${month}-10T00:00:00Z`, 2, 1);
    await closeMonth(t.database, month);
    const { invoices } = (await api.get(`/v2/invoices?month=${month}&organizationId=${c.org.id}`, c.admin)).json();
    const { id, number } = invoices[0];
    const label = `INV-${String(number).padStart(6, '0')}`;

    const pdf = await api.get(`/v2/invoices/${id}.pdf`, c.admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${label.toLowerCase()}-${month}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await new PDFParse({ data: new Uint8Array(pdf.rawPayload) }).getText()).text;
    expect(text).toContain(`Invoice ${label}`);
    expect(text).toContain(c.org.name);

    const csv = await api.get(`/v2/invoices/${id}.csv`, c.admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${label.toLowerCase()}-${month}.csv"`);
    expect(csv.headers['cache-control']).toBe('private, no-store');
    const contractId = (await api.get(`/v2/invoices/${id}`, c.admin)).json().invoice.lines[0].contractId;
    // The console's one format: days M/D/YY (UTC), months by name, money as $ with two to six places.
    const yy = month.slice(2, 4);
    const [start, end] = [`3/1/${yy}`, `3/31/${yy}`];
    const name = `March ${month.slice(0, 4)}`;
    const head = `${label},${name},${c.org.name},${contractId}`;
    expect(csv.body).toBe(
      [
        'invoice,month,organization,contract,price,period_start,period_end,quantity,unit_price,amount',
        `${head},request,${start},${end},1,$0.001,$0.001`,
        `${head},identity,${start},${end},2,$0.0125,$0.025`,
        `${head},emails,${start},${end},1,$0.005,$0.005`,
        `${label},${name},${c.org.name},,subtotal,,,,,$0.031`,
        `${label},${name},${c.org.name},,tax (none: no tax rate applies),,,,,$0.00`,
        `${label},${name},${c.org.name},,total,,,,,$0.031`,
        '',
      ].join('\n'),
    );
  });

  it('marks an issued invoice paid, then void; lists totals per month without void invoices', async () => {
    const month = freshMonth();
    const c = await customer(month);
    await use(c.org.id, c.adminId, `${month}-10T00:00:00Z`, 4, 0);
    const { issued } = await closeMonth(t.database, month);
    const id = issued[0]!;
    const listed = (await api.get(`/v2/invoices?month=${month}`, superCookie)).json();
    expect(listed.months).toEqual([{ month, invoices: 1, total: '0.051000' }]);
    const paid = await api.post(`/v2/invoices/${id}/pay`, superCookie, {});
    expect(paid.statusCode).toBe(200);
    expect(paid.json().invoice).toMatchObject({ status: 'paid' });
    expect(Date.parse(paid.json().invoice.paidAt)).toBeGreaterThan(Date.now() - 60_000);
    const again = await api.post(`/v2/invoices/${id}/pay`, superCookie, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(INVOICE_MESSAGES.cannot('pay', 'paid'));
    expect((await api.post(`/v2/invoices/${id}/void`, superCookie, {})).json().invoice.status).toBe('void');
    expect((await api.get(`/v2/invoices?month=${month}&status=void`, superCookie)).json()).toMatchObject({
      total: 1,
      months: [],
    });
    expect((await api.get(`/v2/invoices?month=${month}&status=paid`, superCookie)).json().total).toBe(0);
    // Who marked it paid and who voided it, from which status; the refused second payment left no entry.
    expect(await auditedOf(t.database, 'invoice', id)).toEqual([
      { action: 'invoice.pay', actorId: superId, detail: { from: 'issued', number: paid.json().invoice.number } },
      { action: 'invoice.void', actorId: superId, detail: { from: 'paid', number: paid.json().invoice.number } },
    ]);
  });
});

describe('GET /v2/invoices/draft', () => {
  it('gives this month running invoice, updated as usage arrives, to the organization admins and super+', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id, { pricePerRequest: 0.002, pricePerIdentity: 0.01 });
    const admin = await makeUser(t.database, 'admin', org.id);
    const cookie = await signIn(t.app, admin.email);
    const path = `/v2/invoices/draft?organizationId=${org.id}`;
    const r0 = await api.get(path, cookie);
    expect(r0.statusCode).toBe(200);
    const before = r0.json().invoice;
    expect(before).toMatchObject({ id: 0, number: null, status: 'draft', total: '0.000000' });
    expect(before.month).toBe(new Date().toISOString().slice(0, 7));
    await use(org.id, admin.id, new Date().toISOString(), 3, 0);
    const after = (await api.get(path, superCookie)).json().invoice;
    expect(after.lines.map((l: { price: string; quantity: number }) => [l.price, l.quantity])).toEqual([
      ['request', 1],
      ['identity', 3],
    ]);
    expect(after.total).toBe('0.032000');
    const stranger = await signIn(
      t.app,
      (await makeUser(t.database, 'admin', (await makeOrganization(t.database)).id)).email,
    );
    expect((await api.get(path, stranger)).statusCode).toBe(404);
    expect((await api.get('/v2/invoices/draft?organizationId=2000000000', superCookie)).statusCode).toBe(404);
  });
});

describe('/v2/invoices: 400, 403, 404, 409', () => {
  it('answers 404 to administrators for another organization invoices, as for missing ones', async () => {
    const month = freshMonth();
    const mine = await customer(month);
    const other = await customer(month);
    await closeMonth(t.database, month);
    const theirs = (await api.get(`/v2/invoices?month=${month}&organizationId=${other.org.id}`, superCookie)).json()
      .invoices[0];

    for (const path of [
      `/v2/invoices/${theirs.id}`,
      `/v2/invoices/${theirs.id}.pdf`,
      `/v2/invoices/${theirs.id}.csv`,
    ]) {
      const res = await api.get(path, mine.admin);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error).toBe(INVOICE_MESSAGES.notFound);
    }
    // The same answer as an id that does not exist.
    expect((await api.get('/v2/invoices/2000000000.pdf', mine.admin)).json()).toMatchObject({
      error: INVOICE_MESSAGES.notFound,
    });
    for (const path of [
      `/v2/invoices?organizationId=${other.org.id}`,
      `/v2/invoices/draft?organizationId=${other.org.id}`,
    ]) {
      const res = await api.get(path, mine.admin);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error).toBe(BILLING_MESSAGES.notFound);
    }
    // Their own answers.
    expect((await api.get(`/v2/invoices/${theirs.id}.pdf`, other.admin)).statusCode).toBe(200);
  });

  it('refuses members (no billing), and administrators closing or paying', async () => {
    const month = freshMonth();
    const mine = await customer(month);
    const other = await customer(month);
    await closeMonth(t.database, month);
    const theirs = (await api.get(`/v2/invoices?month=${month}&organizationId=${other.org.id}`, superCookie)).json()
      .invoices[0];

    for (const path of ['/v2/invoices', `/v2/invoices/${theirs.id}`, `/v2/invoices/${theirs.id}.pdf`]) {
      const res = await api.get(path, other.member);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().error).toBe(INVOICE_MESSAGES.forbidden);
    }
    expect((await api.get(`/v2/invoices/draft?organizationId=${mine.org.id}`, mine.member)).statusCode).toBe(403);
    expect((await api.get('/v2/invoices/1.pdf', '')).statusCode).toBe(401);
    expect((await api.post('/v2/invoices/close', mine.admin, { month })).statusCode).toBe(403);
    expect((await api.post(`/v2/invoices/${theirs.id}/pay`, other.admin, {})).statusCode).toBe(403);

    // An administrator's list holds their organization's invoices only, whatever they ask for.
    const own = (await api.get(`/v2/invoices?month=${month}`, mine.admin)).json();
    expect(own.invoices.map((i: { organizationId: number }) => i.organizationId)).toEqual([mine.org.id]);
  });

  it('answers 400 naming the problem and 404 for an unknown invoice', async () => {
    const bad = await api.post('/v2/invoices/close', superCookie, { month: '2026-13' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(INVOICE_MESSAGES.month);
    const future = await api.post('/v2/invoices/close', superCookie, { month: new Date().toISOString().slice(0, 7) });
    expect(future.statusCode).toBe(400);
    expect(future.json().error).toBe(INVOICE_MESSAGES.notEnded);
    expect((await api.get('/v2/invoices?month=March', superCookie)).body).toContain(INVOICE_MESSAGES.month);
    expect((await api.get('/v2/invoices?status=open', superCookie)).statusCode).toBe(400);
    expect((await api.get('/v2/invoices?limit=7', superCookie)).statusCode).toBe(400);
    expect((await api.get('/v2/invoices/abc.pdf', superCookie)).statusCode).toBe(400);
    expect((await api.post('/v2/invoices/1/refund', superCookie, {})).statusCode).toBe(400);
    expect((await api.get('/v2/invoices/2000000000', superCookie)).statusCode).toBe(404);
    expect((await api.post('/v2/invoices/2000000000/pay', superCookie, {})).statusCode).toBe(404);
  });
});
