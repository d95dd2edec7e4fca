/**
 * /billing (issue 19, super+): every organization's invoices, filtered by month, organization and status, with
 * totals per month (void invoices left out), §9 page sizes, the close of a month on demand, the status changes
 * and the PDF and CSV downloads.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { formatMonth } from '@tessera/common/dates';
import { INVOICE_STATUSES, type Invoice, type InvoiceAction, MONTH_PATTERN } from '@tessera/common/invoices';
import { formatMoney } from '@tessera/common/money';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { INVOICE_STATUS_LABELS, InvoiceTable } from '../../lib/invoice-table';
import { useStore } from '../../lib/store';
import { useFetch, useLoads } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { PageHeading } from '../page-heading';

interface Listing {
  invoices: Invoice[];
  total: number;
  months: { month: string; invoices: number; total: string }[];
}

const lastMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

export default function BillingPage() {
  const [month, setMonth] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(TABLE_PAGE_SIZES[1]);
  const [listing, setListing] = useState<Listing | null>(null);
  const [closeMonth, setCloseMonth] = useState(lastMonth());
  const [closed, setClosed] = useState('');
  useFetch('/v2/organizations');
  const organizations = Object.values(
    (useStore((s) => s.areas.organizations) ?? {}) as Record<string, { id: number; name: string }>,
  ).sort((a, b) => a.name.localeCompare(b.name));

  // A failed listing shows its error and a Retry in place of the tables; its alert goes when a load succeeds.
  const { track, ...loads } = useLoads();
  const load = useCallback(async () => {
    const query: Record<string, string | number> = { limit: pageSize, offset: page * pageSize };
    if (MONTH_PATTERN.test(month)) query.month = month;
    if (organizationId) query.organizationId = Number(organizationId);
    if (status) query.status = status;
    setListing(await track(request<Listing>('GET', '/v2/invoices', { query, merge: false })));
  }, [month, organizationId, status, page, pageSize, track]);
  const failed = showsLoadError(loads);
  useEffect(() => {
    load().catch(() => {
      // The alert shows the error.
    });
  }, [load]);

  const act = async (invoice: Invoice, action: InvoiceAction) => {
    await request('POST', `/v2/invoices/${invoice.id}/${action}`, { body: {}, merge: false }).catch(() => null);
    await load().catch(() => null);
  };
  const close = async () => {
    const res = await request<{ issued: number }>('POST', '/v2/invoices/close', {
      body: { month: closeMonth },
      merge: false,
    }).catch(() => null);
    if (res)
      setClosed(`${res.issued} ${res.issued === 1 ? 'invoice' : 'invoices'} issued for ${formatMonth(closeMonth)}.`);
    await load().catch(() => null);
  };

  return (
    <>
      <PageHeading>Billing</PageHeading>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>
        <TextField
          label="Month"
          type="month"
          sx={{ width: 200 }}
          value={month}
          onChange={(e) => {
            setMonth(e.target.value);
            setPage(0);
          }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          label="Organization"
          value={organizationId}
          onChange={(e) => {
            setOrganizationId(e.target.value);
            setPage(0);
          }}
          sx={{ width: 240 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">All organizations</MenuItem>
          {organizations.map((o) => (
            <MenuItem key={o.id} value={String(o.id)}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(0);
          }}
          sx={{ width: 180 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Any status</MenuItem>
          {INVOICE_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {INVOICE_STATUS_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {failed && (
        <LoadError
          what="the invoices"
          error={loads.error}
          retrying={loads.status === 'loading'}
          onRetry={() => void load().catch(() => null)}
          sx={{ mb: 2 }}
        />
      )}
      {!failed && (
        <>
          <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
            Totals per month
          </Typography>
          <Paper variant="outlined" sx={{ mb: 3 }}>
            <Table size="small" aria-label="Totals per month">
              <TableHead>
                <TableRow>
                  <TableCell>Month</TableCell>
                  <TableCell align="right">Invoices</TableCell>
                  <TableCell align="right">Total</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(listing?.months ?? []).map((m) => (
                  <TableRow key={m.month} data-testid="month-total">
                    <TableCell>{formatMonth(m.month)}</TableCell>
                    <TableCell align="right">{m.invoices}</TableCell>
                    <TableCell align="right">{formatMoney(m.total)}</TableCell>
                  </TableRow>
                ))}
                {listing && listing.months.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={3}>No totals.</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </Paper>
          <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
            Invoices
          </Typography>
          <InvoiceTable
            label="Invoices"
            showOrganization
            invoices={listing?.invoices ?? []}
            onAction={(i, a) => void act(i, a)}
          />
          <TablePagination
            component="div"
            count={listing?.total ?? 0}
            page={page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
            onPageChange={(_, next) => setPage(next)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(0);
            }}
          />
        </>
      )}
      <Typography variant="h5" component="h2" sx={{ mt: 3, mb: 1 }}>
        Close a month
      </Typography>
      <Typography sx={{ mb: 1 }}>
        Issues the month's invoices to every organization with a contract in force during it that has none yet. Closing
        a month again issues nothing new.
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <TextField
          label="Month to close"
          type="month"
          sx={{ width: 200 }}
          value={closeMonth}
          onChange={(e) => setCloseMonth(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="contained" onClick={() => void close()} disabled={!MONTH_PATTERN.test(closeMonth)}>
          Close month
        </Button>
        <Typography role="status">{closed}</Typography>
      </Box>
    </>
  );
}
