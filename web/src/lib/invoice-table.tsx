/**
 * A table of invoices (issue 19, decision 0064) shared by the billing page and the organization page: number,
 * organization (on the billing page), month, issue and due dates, status and total, with PDF and CSV downloads
 * (saved as files by `request`), and for super+ the actions Mark paid and Void. Money and dates are in the one
 * format (common/money.ts, common/dates.ts); money stays the server's exact decimal text, never a float.
 */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDay, formatMonth } from '@tessera/common/dates';
import { INVOICE_ACTION_FROM, type Invoice, type InvoiceAction, invoiceNumber } from '@tessera/common/invoices';
import { formatMoney } from '@tessera/common/money';
import { request } from './api';

export const INVOICE_STATUS_LABELS = { draft: 'Draft', issued: 'Issued', paid: 'Paid', void: 'Void' } as const;

export function downloadInvoice(invoice: Invoice, ext: 'pdf' | 'csv'): void {
  void request('GET', `/v2/invoices/${invoice.id}.${ext}`).catch(() => {
    // The alert shows the error.
  });
}

export function InvoiceTable(props: {
  invoices: Invoice[];
  label: string;
  /** A column naming each invoice's organization (the billing page lists every organization's). */
  showOrganization?: boolean;
  /** Given to super+: the status changes. */
  onAction?: (invoice: Invoice, action: InvoiceAction) => void;
}) {
  const columns = props.showOrganization ? 8 : 7;
  return (
    // Focusable, so a keyboard can scroll it sideways on a narrow screen (WCAG 2.1.1; axe's scrollable-region-focusable).
    <TableContainer
      component={Paper}
      variant="outlined"
      tabIndex={0}
      role="region"
      aria-label={`${props.label}, scrollable`}
    >
      <Table size="small" aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>Invoice</TableCell>
            {props.showOrganization && <TableCell>Organization</TableCell>}
            <TableCell>Month</TableCell>
            <TableCell>Issued</TableCell>
            <TableCell>Due</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.invoices.length === 0 && (
            <TableRow>
              <TableCell colSpan={columns}>No invoices.</TableCell>
            </TableRow>
          )}
          {props.invoices.map((i) => {
            const number = invoiceNumber(i.number);
            return (
              <TableRow key={i.id} data-testid="invoice-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{number}</TableCell>
                {props.showOrganization && <TableCell>{i.organizationName}</TableCell>}
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMonth(i.month)}</TableCell>
                <TableCell>{formatDay(i.issuedAt)}</TableCell>
                <TableCell>{formatDay(i.dueAt)}</TableCell>
                <TableCell>{INVOICE_STATUS_LABELS[i.status]}</TableCell>
                <TableCell align="right">{formatMoney(i.total)}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                    <Button
                      size="small"
                      onClick={() => downloadInvoice(i, 'pdf')}
                      aria-label={`Download ${number} as PDF`}
                    >
                      PDF
                    </Button>
                    <Button
                      size="small"
                      onClick={() => downloadInvoice(i, 'csv')}
                      aria-label={`Download ${number} as CSV`}
                    >
                      CSV
                    </Button>
                    {props.onAction && INVOICE_ACTION_FROM.pay.includes(i.status) && (
                      <Button
                        size="small"
                        onClick={() => props.onAction?.(i, 'pay')}
                        aria-label={`Mark paid: ${number}`}
                      >
                        Mark paid
                      </Button>
                    )}
                    {props.onAction && INVOICE_ACTION_FROM.void.includes(i.status) && (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => props.onAction?.(i, 'void')}
                        aria-label={`Void ${number}`}
                      >
                        Void
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
