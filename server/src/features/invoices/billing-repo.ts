/** Organizations' billing details in the database (decision 0064). */
import type { BillingDetails, BillingParty } from '@tessera/common/billing';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rowsOf } from '../../db/rows';

interface DetailsRow {
  organization_id: number;
  legal_name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  tax_id: string | null;
  email: string | null;
  tax_rate: string | null;
  updated_at: Date | string;
}

const COLUMNS = sql`organization_id, legal_name, street, city, state, zip, tax_id, email, tax_rate::text as tax_rate,
  updated_at`;

function detailsOf(r: DetailsRow): BillingDetails {
  return {
    id: r.organization_id,
    legalName: r.legal_name,
    street: r.street,
    city: r.city,
    state: r.state,
    zip: r.zip,
    taxId: r.tax_id,
    email: r.email,
    taxRate: r.tax_rate,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The party an invoice is made out to: the details without the organization's settings. */
export const partyOf = (d: BillingDetails): BillingParty => ({
  legalName: d.legalName,
  street: d.street,
  city: d.city,
  state: d.state,
  zip: d.zip,
  taxId: d.taxId,
  email: d.email,
});

export async function findBillingDetails(db: Executor, organizationId: number): Promise<BillingDetails | null> {
  const [row] = rowsOf<DetailsRow>(
    await db.execute(sql`select ${COLUMNS} from billing_details where organization_id = ${organizationId}`),
  );
  return row ? detailsOf(row) : null;
}

/** The details of every organization without an invoice for the month yet (those the close may issue to). */
export async function buyersToBill(db: Executor, month: string): Promise<Map<number, BillingDetails>> {
  const rows = rowsOf<DetailsRow>(
    await db.execute(sql`select ${COLUMNS} from billing_details b where not exists
      (select 1 from invoices i where i.organization_id = b.organization_id and i.month = ${month})`),
  );
  return new Map(rows.map((r) => [r.organization_id, detailsOf(r)]));
}

/** The details as given; `taxRate` undefined keeps the stored rate. One statement: all of it lands, or none. */
export async function saveBillingDetails(
  db: Executor,
  organizationId: number,
  party: BillingParty,
  taxRate: string | null | undefined,
): Promise<BillingDetails> {
  const keep = taxRate === undefined;
  const [row] = rowsOf<DetailsRow>(
    await db.execute(sql`insert into billing_details as b
      (organization_id, legal_name, street, city, state, zip, tax_id, email, tax_rate, updated_at)
      values (${organizationId}, ${party.legalName}, ${party.street}, ${party.city}, ${party.state}, ${party.zip},
        ${party.taxId}, ${party.email}, ${keep ? null : taxRate}::numeric, now())
      on conflict (organization_id) do update set legal_name = excluded.legal_name, street = excluded.street,
        city = excluded.city, state = excluded.state, zip = excluded.zip, tax_id = excluded.tax_id,
        email = excluded.email, tax_rate = ${keep ? sql`b.tax_rate` : sql`excluded.tax_rate`}, updated_at = now()
      returning ${COLUMNS}`),
  );
  return detailsOf(row!);
}
