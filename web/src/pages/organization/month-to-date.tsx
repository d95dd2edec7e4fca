/**
 * An organization's plan and this month so far (issue 32 item 10, decision 0064): the contract in force (as the
 * 402 check chooses it) with its prices and monthly limit, and this month's running invoice computed by the server
 * from the usage: each price's quantity and amount, subtotal against the monthly limit, tax and total so far.
 */
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { percentText } from '@tessera/common/billing';
import { type Contract, contractInForce, microsOf } from '@tessera/common/contracts';
import { formatDay, formatMonth } from '@tessera/common/dates';
import type { Invoice } from '@tessera/common/invoices';
import { formatMoney, microsOfAmount } from '@tessera/common/money';
import { Link as RouterLink } from 'react-router';

const COUNT = new Intl.NumberFormat('en-US');

/** What a line's price is for. */
export function priceText(price: string): string {
  if (price === 'request') return 'Requests';
  if (price === 'identity') return 'Identities returned';
  if (price === 'event') return 'Change events';
  return `Identities with ${price}`;
}

/** The plan in a sentence: prices, and the monthly limit. */
export function planText(c: Contract): string {
  const groups = Object.entries(c.groupPrices).map(([g, p]) => `${formatMoney(p ?? 0)} per identity with ${g}`);
  const prices = [
    `${formatMoney(c.pricePerRequest)} a request`,
    `${formatMoney(c.pricePerIdentity)} per identity returned`,
  ];
  const limit = c.monthlyLimit === null ? 'no monthly limit' : `a monthly limit of ${formatMoney(c.monthlyLimit)}`;
  return `${[...prices, ...groups].join(', ')}; ${limit}.`;
}

/** Whole percent of the limit the subtotal reaches (rounded down), or null without a limit. */
export function shareOfLimit(subtotal: string, limit: number | null): number | null {
  if (limit === null) return null;
  const cap = microsOfAmount(limit) ?? 0n;
  return cap === 0n ? 100 : Number((microsOf(subtotal) * 100n) / cap);
}

export function MonthToDate({ draft, contracts }: { draft: Invoice | null; contracts: Contract[] }) {
  const plan = contractInForce(contracts, Date.now());
  const share = draft && plan ? shareOfLimit(draft.subtotal, plan.monthlyLimit) : null;
  const spend =
    draft && plan && plan.monthlyLimit !== null
      ? `${formatMoney(draft.subtotal)} of the ${formatMoney(plan.monthlyLimit)} monthly limit used (${share}%).`
      : null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }} component="section" aria-labelledby="month-to-date-heading">
      <Typography id="month-to-date-heading" component="h3" variant="h6">
        {draft ? `${formatMonth(draft.month)} so far` : 'This month so far'}
      </Typography>
      <Typography sx={{ mt: 1 }} data-testid="plan">
        {plan ? (
          <>
            Plan:{' '}
            <Link component={RouterLink} to={`/contracts/${plan.id}`}>
              {plan.name || `Contract ${plan.id}`}
            </Link>{' '}
            ({formatDay(plan.startsAt)} to {formatDay(plan.endsAt)}), {planText(plan)}
          </>
        ) : (
          'No contract is in force, so lookups are refused until one starts.'
        )}
      </Typography>
      {share !== null && spend && (
        <>
          <LinearProgress
            variant="determinate"
            value={Math.min(100, share)}
            color={share >= 100 ? 'error' : share >= 80 ? 'warning' : 'primary'}
            aria-label="Monthly limit used"
            aria-valuetext={spend}
            sx={{ height: 10, borderRadius: 5, my: 1 }}
          />
          <Typography data-testid="limit-used">{spend}</Typography>
        </>
      )}
      {draft && (
        <TableContainer sx={{ mt: 2 }} tabIndex={0} role="region" aria-label="Usage this month, scrollable">
          <Table size="small" aria-label="Usage this month">
            <TableHead>
              <TableRow>
                <TableCell>Usage</TableCell>
                <TableCell align="right">Quantity</TableCell>
                <TableCell align="right">Unit price</TableCell>
                <TableCell align="right">Amount</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {draft.lines.map((l) => (
                <TableRow key={`${l.contractId}-${l.price}-${l.periodStart}`} data-testid="usage-line">
                  <TableCell>{priceText(l.price)}</TableCell>
                  <TableCell align="right">{COUNT.format(l.quantity)}</TableCell>
                  <TableCell align="right">{formatMoney(l.unitPrice)}</TableCell>
                  <TableCell align="right">{formatMoney(l.amount)}</TableCell>
                </TableRow>
              ))}
              {draft.lines.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>Nothing used yet this month.</TableCell>
                </TableRow>
              )}
              <TableRow>
                <TableCell colSpan={3}>Subtotal</TableCell>
                <TableCell align="right">{formatMoney(draft.subtotal)}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell colSpan={3}>
                  {draft.taxRate === null ? 'Tax (none)' : `Tax (${percentText(draft.taxRate)})`}
                </TableCell>
                <TableCell align="right">{formatMoney(draft.tax)}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell colSpan={3} sx={{ fontWeight: 'bold' }}>
                  Total so far ({draft.currency})
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 'bold' }} data-testid="invoice-draft">
                  {formatMoney(draft.total)}
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
