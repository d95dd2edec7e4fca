/**
 * A table of invoices (issue 19) shared by the billing page and the organization page: number, organization,
 * month, status and total, with PDF and CSV downloads (saved as files by `request`), and for super+ the actions
 * Mark paid and Void. Money is shown as the server's exact decimal string, never a float.
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
import { INVOICE_ACTION_FROM, type Invoice, type InvoiceAction, invoiceNumber } from '@tessera/common/invoices';
import { request } from './api';

/** '12.340000' → '$12.34'; places beyond the cent are kept when not zero. */
export const dollarsText = (amount: string) => `$${amount.replace(/(\.\d{2}\d*?)0+$/, '$1')}`;

export const INVOICE_STATUS_LABELS = { draft: 'Draft', issued: 'Issued', paid: 'Paid', void: 'Void' } as const;

export function downloadInvoice(invoice: Invoice, ext: 'pdf' | 'csv'): void {
  void request('GET', `/v2/invoices/${invoice.id}.${ext}`).catch(() => {
    // The alert shows the error.
  });
}

export function InvoiceTable(props: {
  invoices: Invoice[];
  label: string;
  /** Given to super+: the status changes. */
  onAction?: (invoice: Invoice, action: InvoiceAction) => void;
}) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>Invoice</TableCell>
            <TableCell>Organization</TableCell>
            <TableCell>Month</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.invoices.length === 0 && (
            <TableRow>
              <TableCell colSpan={6}>No invoices.</TableCell>
            </TableRow>
          )}
          {props.invoices.map((i) => {
            const number = invoiceNumber(i.number);
            return (
              <TableRow key={i.id} data-testid="invoice-row">
                <TableCell>{number}</TableCell>
                <TableCell>{i.organizationName}</TableCell>
                <TableCell>{i.month}</TableCell>
                <TableCell>{INVOICE_STATUS_LABELS[i.status]}</TableCell>
                <TableCell align="right">{dollarsText(i.total)}</TableCell>
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
                        aria-label={`Mark ${number} paid`}
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
