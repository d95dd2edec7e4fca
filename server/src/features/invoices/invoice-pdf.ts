/**
 * An invoice as a PDF (decisions 0034, 0064), made with pdfkit (pure JavaScript, standard fonts, no browser): the
 * seller's and the buyer's legal details, number, issue and due dates, service period, the lines (quantity, unit
 * price, amount), subtotal, tax (or a line saying none applies), total, currency and payment terms. Money and dates
 * are in the console's one format.
 */
import type { BillingParty } from '@tessera/common/billing';
import { formatDay } from '@tessera/common/dates';
import { type Invoice, invoiceNumber, servicePeriod } from '@tessera/common/invoices';
import { formatMoney } from '@tessera/common/money';
import PDFDocument from 'pdfkit';
import { lastDay, priceLabel, taxLabel } from './labels';
import type { Seller } from './seller';

const LEFT = 50;
const RIGHT = 562;
const META_X = 330;
const COUNT = new Intl.NumberFormat('en-US');
const STATUS = { draft: 'Draft', issued: 'Issued', paid: 'Paid', void: 'Void' } as const;

type Doc = PDFKit.PDFDocument;

function sellerLines(seller: Seller): string[] {
  return [
    ...seller.address,
    ...(seller.taxId ? [`Tax ID: ${seller.taxId}`] : []),
    ...[seller.email, seller.phone].filter((v): v is string => !!v),
  ];
}

function buyerLines(buyer: BillingParty | null, organizationName: string): string[] {
  if (!buyer) return [organizationName, 'No billing details were on file when this invoice was issued.'];
  return [
    buyer.legalName,
    buyer.street,
    `${buyer.city}, ${buyer.state} ${buyer.zip}`,
    buyer.taxId ? `Tax ID: ${buyer.taxId}` : 'Tax ID: none given',
    ...(buyer.email ? [buyer.email] : []),
  ];
}

/** Label and value pairs in two columns from `x`, one line each. */
function pairs(doc: Doc, x: number, y: number, rows: [string, string][]): number {
  let at = y;
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').text(label, x, at, { width: 100, lineBreak: false });
    doc.font('Helvetica').text(value, x + 100, at, { width: RIGHT - x - 100 });
    at = doc.y + 2;
  }
  return at;
}

const COLS = [LEFT, 300, 380, 470] as const;
function row(doc: Doc, cells: string[], bold = false): void {
  const y = doc.y;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
  let bottom = y;
  cells.forEach((c, i) => {
    const x = COLS[i]!;
    const width = (COLS[i + 1] ?? RIGHT) - x - 8;
    doc.text(c, x, y, { width, align: i === 0 ? 'left' : 'right' });
    bottom = Math.max(bottom, doc.y);
  });
  doc.y = bottom + 4;
}

function rule(doc: Doc): void {
  doc.moveTo(LEFT, doc.y).lineTo(RIGHT, doc.y).lineWidth(0.5).stroke();
  doc.y += 6;
}

export function invoicePdf(invoice: Invoice, seller: Seller): Promise<Buffer> {
  const number = invoiceNumber(invoice.number);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: LEFT,
    info: { Title: `Invoice ${number}`, Author: seller.legalName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // Seller (left) and the invoice's particulars (right).
  doc
    .fontSize(16)
    .font('Helvetica-Bold')
    .text(seller.legalName, LEFT, 50, { width: META_X - LEFT - 10 });
  doc.fontSize(10).font('Helvetica');
  for (const line of sellerLines(seller)) doc.text(line, { width: META_X - LEFT - 10 });
  const sellerBottom = doc.y;
  doc
    .fontSize(20)
    .font('Helvetica-Bold')
    .text(`Invoice ${number}`, META_X, 50, { width: RIGHT - META_X });
  doc.fontSize(10);
  const period = servicePeriod(invoice.month);
  const metaBottom = pairs(doc, META_X, doc.y + 4, [
    ['Invoice number', number],
    ['Issue date', invoice.issuedAt ? formatDay(invoice.issuedAt) : 'Not issued'],
    ['Due date', invoice.dueAt ? formatDay(invoice.dueAt) : 'Not issued'],
    ['Service period', `${formatDay(period.start)} to ${formatDay(period.end)}`],
    ['Currency', invoice.currency === 'USD' ? 'USD (US dollars)' : invoice.currency],
    ['Status', STATUS[invoice.status]],
    ...(invoice.paidAt ? [['Paid on', formatDay(invoice.paidAt)] as [string, string]] : []),
    ...(invoice.voidedAt ? [['Voided on', formatDay(invoice.voidedAt)] as [string, string]] : []),
  ]);

  // Buyer.
  doc.y = Math.max(sellerBottom, metaBottom) + 16;
  doc.x = LEFT;
  doc.font('Helvetica-Bold').fontSize(11).text('Bill to', LEFT);
  doc.font('Helvetica').fontSize(10);
  for (const line of buyerLines(invoice.buyer, invoice.organizationName)) doc.text(line, LEFT);
  doc.moveDown();

  // Lines and totals.
  row(doc, ['Description', 'Quantity', 'Unit price', 'Amount'], true);
  rule(doc);
  for (const l of invoice.lines) {
    const when = `${formatDay(l.periodStart)} to ${lastDay(l.periodEnd)}`;
    row(doc, [
      `${priceLabel(l.price)}, contract #${l.contractId} (${when})`,
      COUNT.format(l.quantity),
      formatMoney(l.unitPrice),
      formatMoney(l.amount),
    ]);
  }
  if (invoice.lines.length === 0) row(doc, ['No usage was billed for this period.', '', '', formatMoney('0')]);
  rule(doc);
  const total = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, COLS[1], y, { width: COLS[3] - COLS[1] - 8, align: 'right' });
    doc.text(formatMoney(amount), COLS[3], y, { width: RIGHT - COLS[3] - 8, align: 'right' });
    doc.y = Math.max(doc.y, y) + 4;
  };
  total('Subtotal', invoice.subtotal);
  total(taxLabel(invoice), invoice.tax);
  total(`Total (${invoice.currency})`, invoice.total, true);

  // Terms.
  doc.moveDown();
  doc.x = LEFT;
  doc.font('Helvetica-Bold').text('Payment terms', LEFT);
  doc.font('Helvetica');
  const due = invoice.dueAt ? ` Payment is due by ${formatDay(invoice.dueAt)}.` : '';
  doc.text(`Net ${seller.paymentDays} days from the issue date.${due}`, LEFT, doc.y, { width: RIGHT - LEFT });
  if (seller.paymentInstructions) doc.text(seller.paymentInstructions, { width: RIGHT - LEFT });
  if (seller.email) doc.text(`Questions about this invoice: ${seller.email}`, { width: RIGHT - LEFT });
  doc.end();
  return done;
}
