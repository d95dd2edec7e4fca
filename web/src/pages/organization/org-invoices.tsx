/**
 * An organization's invoices on its page (issue 19), for its administrators and super+, with the downloads, and
 * this month's running (draft) total, computed by the server from the usage so far.
 */
import Typography from '@mui/material/Typography';
import type { Invoice } from '@tessera/common/invoices';
import { useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { dollarsText, InvoiceTable } from '../../lib/invoice-table';

export function OrganizationInvoices({ organizationId }: { organizationId: number }) {
  const [invoices, setInvoices] = useState<Invoice[]>([]);
  const [draft, setDraft] = useState<Invoice | null>(null);
  useEffect(() => {
    request<{ invoices: Invoice[] }>('GET', '/v2/invoices', { query: { organizationId, limit: 100 }, merge: false })
      .then((r) => setInvoices(r.invoices))
      .catch(() => {
        // The alert shows the error.
      });
    request<{ invoice: Invoice }>('GET', '/v2/invoices/draft', { query: { organizationId }, merge: false })
      .then((r) => setDraft(r.invoice))
      .catch(() => {
        // The alert shows the error.
      });
  }, [organizationId]);
  return (
    <section aria-labelledby="invoices-heading" id="invoices">
      <Typography variant="h5" component="h2" id="invoices-heading" sx={{ mt: 4, mb: 1 }}>
        Invoices
      </Typography>
      {draft && (
        <Typography sx={{ mb: 1 }} data-testid="invoice-draft">
          {draft.month} so far (draft): {dollarsText(draft.total)}
        </Typography>
      )}
      <InvoiceTable label="Invoices" invoices={invoices} />
    </section>
  );
}
