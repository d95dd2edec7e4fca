/**
 * Invoices in the database (decisions 0034, 0064). The close takes the counter row's lock first, so closes (in any
 * process) run one after another: the second sees the first's invoices and issues nothing new, and every number
 * given is committed with its invoice: no gaps. Each invoice keeps the buyer, tax rate and due date it was issued
 * with; subtotal, tax and total are computed by PostgreSQL in numeric.
 */
import type { BillingParty } from '@tessera/common/billing';
import type { Invoice, InvoiceLine, InvoiceStatus } from '@tessera/common/invoices';
import { CURRENCY } from '@tessera/common/money';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { invoiceLines, invoices } from '../../db/schema';
import { buyersToBill, findBillingDetails, partyOf } from './billing-repo';
import { type LineRow, monthLines } from './lines';
import { DEFAULT_SELLER, type Seller } from './seller';

/** What the close takes from the seller's configuration. */
export type IssueTerms = Pick<Seller, 'taxRate' | 'paymentDays'>;

const DAY_MS = 86_400_000;

const CHUNK = 1000;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Issues the month's invoices to every organization with a contract in force during it and none yet. `alongside`
 * writes in the same transaction (the audit entry of a close someone asked for): both land, or neither.
 */
export async function closeMonth(
  database: Database,
  month: string,
  alongside?: (tx: Executor, issued: number[]) => Promise<void>,
  terms: IssueTerms = DEFAULT_SELLER,
): Promise<{ issued: number[] }> {
  return database.transaction(async (tx) => {
    const issued = await issueMonth(tx, month, terms);
    await alongside?.(tx, issued);
    return { issued };
  });
}

async function issueMonth(tx: Executor, month: string, terms: IssueTerms): Promise<number[]> {
  await tx.execute(sql`insert into invoice_counter (id, last) values (1, 0) on conflict (id) do nothing`);
  const counter = await tx.execute(sql`select last from invoice_counter where id = 1 for update`);
  let last = rowsOf<{ last: number }>(counter)[0]!.last;
  const done = await tx.execute(sql`select organization_id from invoices where month = ${month}`);
  const billed = new Set(rowsOf<{ organization_id: number }>(done).map((r) => r.organization_id));
  const byOrganization = new Map<number, LineRow[]>();
  for (const line of await monthLines(tx, month, null, true)) {
    if (billed.has(line.organization_id)) continue;
    const lines = byOrganization.get(line.organization_id) ?? [];
    lines.push(line);
    byOrganization.set(line.organization_id, lines);
  }
  if (byOrganization.size === 0) return [];
  const issuedAt = new Date();
  const dueAt = new Date(issuedAt.getTime() + terms.paymentDays * DAY_MS);
  const buyers = await buyersToBill(tx, month);
  const heads = [...byOrganization.keys()].map((organizationId) => {
    const details = buyers.get(organizationId);
    return {
      organizationId,
      month,
      number: ++last,
      status: 'issued' as const,
      issuedAt,
      dueAt,
      currency: CURRENCY,
      taxRate: details?.taxRate ?? terms.taxRate,
      buyer: details ? partyOf(details) : null,
    };
  });
  const ids = new Map<number, number>();
  for (let i = 0; i < heads.length; i += CHUNK) {
    const rows = await tx
      .insert(invoices)
      .values(heads.slice(i, i + CHUNK))
      .returning({ id: invoices.id, organizationId: invoices.organizationId });
    for (const r of rows) ids.set(r.organizationId, r.id);
  }
  const lines = [...byOrganization].flatMap(([organizationId, rows]) =>
    rows.map((l) => ({
      invoiceId: ids.get(organizationId)!,
      contractId: l.contract_id,
      price: l.price,
      periodStart: new Date(l.period_start),
      periodEnd: new Date(l.period_end),
      quantity: Number(l.quantity),
      unitPrice: l.unit_price,
      amount: l.amount,
    })),
  );
  for (let i = 0; i < lines.length; i += CHUNK) await tx.insert(invoiceLines).values(lines.slice(i, i + CHUNK));
  await tx.execute(sql`update invoices i set subtotal = s.subtotal, tax = s.tax, total = s.subtotal + s.tax
    from (select v.id, v.subtotal, coalesce(round(v.subtotal * v.tax_rate / 100, 6), 0) as tax
      from (select i2.id, i2.tax_rate, coalesce(sum(l.amount), 0) as subtotal from invoices i2
        left join invoice_lines l on l.invoice_id = i2.id
        where i2.month = ${month} and i2.number > ${heads[0]!.number - 1} group by i2.id) v) s
    where i.id = s.id`);
  await tx.execute(sql`update invoice_counter set last = ${last} where id = 1`);
  return [...ids.values()];
}

interface HeadRow {
  id: number;
  organization_id: number;
  organization_name: string;
  month: string;
  number: number | null;
  status: InvoiceStatus;
  subtotal: string;
  tax_rate: string | null;
  tax: string;
  total: string;
  currency: string;
  issued_at: Date | string | null;
  due_at: Date | string | null;
  paid_at: Date | string | null;
  voided_at: Date | string | null;
  buyer: BillingParty | null;
}

function lineOf(l: {
  contract_id: number;
  price: string;
  period_start: Date | string;
  period_end: Date | string;
  quantity: string | number;
  unit_price: string;
  amount: string;
}): InvoiceLine {
  return {
    contractId: l.contract_id,
    price: l.price,
    periodStart: iso(l.period_start)!,
    periodEnd: iso(l.period_end)!,
    quantity: Number(l.quantity),
    unitPrice: l.unit_price,
    amount: l.amount,
  };
}

function headOf(h: HeadRow, lines: InvoiceLine[]): Invoice {
  return {
    id: h.id,
    organizationId: h.organization_id,
    organizationName: h.organization_name,
    month: h.month,
    number: h.number,
    status: h.status,
    subtotal: h.subtotal,
    taxRate: h.tax_rate,
    tax: h.tax,
    total: h.total,
    currency: h.currency,
    issuedAt: iso(h.issued_at),
    dueAt: iso(h.due_at),
    paidAt: iso(h.paid_at),
    voidedAt: iso(h.voided_at),
    buyer: h.buyer,
    lines,
  };
}

const HEAD = sql`select i.id, i.organization_id, o.name as organization_name, i.month, i.number, i.status,
  i.subtotal::numeric(24, 6)::text as subtotal, i.tax_rate::text as tax_rate, i.tax::numeric(24, 6)::text as tax,
  i.total::numeric(24, 6)::text as total, i.currency, i.issued_at, i.due_at, i.paid_at, i.voided_at, i.buyer
  from invoices i join organizations o on o.id = i.organization_id`;

export async function findInvoice(db: Executor, id: number, forUpdate = false): Promise<Invoice | null> {
  const [head] = rowsOf<HeadRow>(
    await db.execute(sql`${HEAD} where i.id = ${id}${forUpdate ? sql` for update of i` : sql``}`),
  );
  if (!head) return null;
  const lines = rowsOf<Parameters<typeof lineOf>[0]>(
    await db.execute(sql`select contract_id, price, period_start, period_end, quantity, unit_price::text as unit_price,
      amount::text as amount from invoice_lines where invoice_id = ${id} order by id`),
  );
  return headOf(head, lines.map(lineOf));
}

export interface InvoiceFilter {
  month?: string;
  organizationId?: number;
  status?: InvoiceStatus;
  limit: number;
  offset: number;
}

function where(f: Omit<InvoiceFilter, 'limit' | 'offset'>) {
  const parts = [sql`true`];
  if (f.month) parts.push(sql`i.month = ${f.month}`);
  if (f.organizationId !== undefined) parts.push(sql`i.organization_id = ${f.organizationId}`);
  if (f.status) parts.push(sql`i.status = ${f.status}`);
  return sql.join(parts, sql` and `);
}

/** A page of invoices (newest month first), their count, and totals per month over every page. */
export async function listInvoices(db: Executor, f: InvoiceFilter) {
  const w = where(f);
  const heads = rowsOf<HeadRow>(
    await db.execute(sql`${HEAD} where ${w} order by i.month desc, i.number desc nulls last, i.id desc
      limit ${f.limit} offset ${f.offset}`),
  );
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from invoices i where ${w}`),
  ) as [{ n: number }];
  const months = rowsOf<{ month: string; invoices: number; total: string }>(
    await db.execute(sql`select i.month, count(*)::int as invoices, sum(i.total)::numeric(24, 6)::text as total
      from invoices i where ${w} and i.status <> 'void' group by i.month order by i.month desc`),
  );
  return { invoices: heads.map((h) => headOf(h, [])), total: n, months };
}

export async function setStatus(db: Executor, id: number, status: InvoiceStatus): Promise<void> {
  const at = status === 'paid' ? sql`paid_at = now()` : sql`voided_at = now()`;
  await db.execute(sql`update invoices set status = ${status}, ${at} where id = ${id}`);
}

/** Adds decimal strings of 6 places exactly, as integers of millionths (BigInt): '0.003000' + '0.125000'. */
export function sumOfAmounts(amounts: string[]): string {
  const micros = amounts.reduce((sum, a) => sum + BigInt(a.replace('.', '')), 0n);
  const text = (micros < 0n ? -micros : micros).toString().padStart(7, '0');
  return `${micros < 0n ? '-' : ''}${text.slice(0, -6)}.${text.slice(-6)}`;
}

/**
 * The month's running invoice of an organization, computed on read from the rollups (status draft, no number),
 * taxed at the rate its invoice would be issued with.
 */
export async function draftInvoice(
  db: Executor,
  organizationId: number,
  month: string,
  terms: IssueTerms = DEFAULT_SELLER,
): Promise<Invoice | null> {
  const [org] = rowsOf<{ name: string }>(
    await db.execute(sql`select name from organizations where id = ${organizationId} and deleted_at is null`),
  );
  if (!org) return null;
  const [lines, details] = await Promise.all([
    monthLines(db, month, organizationId),
    findBillingDetails(db, organizationId),
  ]);
  const subtotal = sumOfAmounts(lines.map((l) => l.amount));
  const taxRate = details?.taxRate ?? terms.taxRate;
  const [{ tax }] = rowsOf<{ tax: string }>(
    await db.execute(
      sql`select coalesce(round(${subtotal}::numeric * ${taxRate}::numeric / 100, 6), 0)::numeric(24, 6)::text as tax`,
    ),
  ) as [{ tax: string }];
  return headOf(
    {
      id: 0,
      organization_id: organizationId,
      organization_name: org.name,
      month,
      number: null,
      status: 'draft',
      subtotal,
      tax_rate: taxRate,
      tax,
      total: sumOfAmounts([subtotal, tax]),
      currency: CURRENCY,
      issued_at: null,
      due_at: null,
      paid_at: null,
      voided_at: null,
      buyer: details ? partyOf(details) : null,
    },
    lines.map(lineOf),
  );
}
