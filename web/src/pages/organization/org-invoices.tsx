/**
 * An organization's billing on its page (issue 19; issue 32 item 10, decision 0064), for its administrators and
 * super+: the plan and this month so far (the running invoice the server computes from the usage), the billing
 * details invoices are made out to, and the invoices with their PDF and CSV downloads.
 */
import Typography from '@mui/material/Typography';
import type { BillingOverview } from '@tessera/common/billing';
import type { Contract } from '@tessera/common/contracts';
import type { Invoice } from '@tessera/common/invoices';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { request } from '../../lib/api';
import { InvoiceTable } from '../../lib/invoice-table';
import { useStore } from '../../lib/store';
import { useLoads } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { BillingDetailsSection } from './billing-details';
import { MonthToDate } from './month-to-date';

interface Loaded {
  invoices: Invoice[];
  draft: Invoice;
  billing: BillingOverview;
}

export function OrganizationInvoices({ organizationId }: { organizationId: number }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const all = useStore((s) => s.areas.contracts) as Record<string, Contract> | undefined;
  const contracts = useMemo(
    () => Object.values(all ?? {}).filter((c) => c.organizationId === organizationId && 'pricePerRequest' in c),
    [all, organizationId],
  );
  const { track, ...loads } = useLoads();
  const load = useCallback(async () => {
    const get = <T,>(path: string, query: Record<string, number>) => request<T>('GET', path, { query, merge: false });
    const [list, draft, billing] = await track(
      Promise.all([
        get<{ invoices: Invoice[] }>('/v2/invoices', { organizationId, limit: 100 }),
        get<{ invoice: Invoice }>('/v2/invoices/draft', { organizationId }),
        get<{ billing: BillingOverview }>(`/v2/billing/${organizationId}`, {}),
      ]),
    );
    setLoaded({ invoices: list.invoices, draft: draft.invoice, billing: billing.billing });
  }, [organizationId, track]);
  useEffect(() => {
    load().catch(() => {
      // The error shows in place of the section, with a Retry.
    });
  }, [load]);

  return (
    <section aria-labelledby="billing-heading" id="billing">
      <Typography variant="h5" component="h2" id="billing-heading" sx={{ mt: 4, mb: 1 }}>
        Billing
      </Typography>
      {showsLoadError(loads) && (
        <LoadError
          what="the billing"
          error={loads.error}
          retrying={loads.status === 'loading'}
          onRetry={() => void load().catch(() => null)}
          sx={{ mb: 2 }}
        />
      )}
      {loaded && !showsLoadError(loads) && (
        <>
          <MonthToDate draft={loaded.draft} contracts={contracts} />
          <BillingDetailsSection
            organizationId={organizationId}
            billing={loaded.billing}
            onSaved={(billing) => {
              setLoaded({ ...loaded, billing });
              // A new tax rate changes this month's running invoice.
              void load().catch(() => null);
            }}
          />
          <Typography variant="h6" component="h3" id="invoices-heading" sx={{ mb: 1 }}>
            Invoices
          </Typography>
          <InvoiceTable label="Invoices" invoices={loaded.invoices} />
        </>
      )}
    </section>
  );
}
