/**
 * An invoice as a file (decision 0034): a PDF made with pdfkit, and a CSV of its lines made with csv-stringify, each
 * cell through the formula guard (an organization's name is an administrator's text; issue 28 finding 11).
 */
import { type Invoice, invoiceNumber } from '@tessera/common/invoices';
import PDFDocument from 'pdfkit';
import { stringifyRows } from '../../http/csv';

export const CSV_COLUMNS = [
  'invoice',
  'month',
  'organization',
  'contract',
  'price',
  'period_start',
  'period_end',
  'quantity',
  'unit_price',
  'amount',
];

export function invoiceCsv(invoice: Invoice): string {
  const number = invoiceNumber(invoice.number);
  const rows = invoice.lines.map((l) => [
    number,
    invoice.month,
    invoice.organizationName,
    l.contractId,
    l.price,
    l.periodStart,
    l.periodEnd,
    l.quantity,
    l.unitPrice,
    l.amount,
  ]);
  rows.push([number, invoice.month, invoice.organizationName, '', 'total', '', '', '', '', invoice.total]);
  return stringifyRows([CSV_COLUMNS, ...rows]);
}

export const fileName = (invoice: Invoice, ext: 'pdf' | 'csv') =>
  `${invoiceNumber(invoice.number).toLowerCase()}-${invoice.month}.${ext}`;

/** Dollars with two places for reading; the exact six-place figures are in the CSV. */
const dollars = (amount: string) => `$${amount.replace(/(\.\d{2}\d*?)0+$/, '$1')}`;

export function invoicePdf(invoice: Invoice): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 50,
    info: { Title: `Invoice ${invoiceNumber(invoice.number)}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(20).text(`Invoice ${invoiceNumber(invoice.number)}`);
  doc.moveDown(0.5).fontSize(11);
  doc.text(`Organization: ${invoice.organizationName}`);
  doc.text(`Month: ${invoice.month}`);
  doc.text(`Status: ${invoice.status}`);
  if (invoice.issuedAt) doc.text(`Issued: ${invoice.issuedAt.slice(0, 10)}`);
  doc.moveDown();
  const cols = [50, 120, 250, 330, 430];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    cells.forEach((c, i) => {
      doc.text(c, cols[i]!, y, { width: (cols[i + 1] ?? 560) - cols[i]! - 6, lineBreak: false });
    });
    doc.moveDown(0.4);
  };
  row(['Contract', 'Price', 'Quantity', 'Unit price', 'Amount'], true);
  for (const l of invoice.lines)
    row([`#${l.contractId}`, l.price, String(l.quantity), `$${l.unitPrice}`, dollars(l.amount)]);
  doc.moveDown();
  row(['', '', '', 'Total', dollars(invoice.total)], true);
  doc.end();
  return done;
}
