/**
 * This month's spending of a contract's organization against the contract's monthly limit, summed by the server
 * from the usage rollups as the 402 check sums them; shares are worked out in exact millionths of a dollar.
 */
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type ContractSpend, microsOf } from '@tessera/common/contracts';
import { formatMonth } from '@tessera/common/dates';
import { formatMoney } from '@tessera/common/money';

/** Whole percent of the limit spent, rounded down (so 100% means the limit is reached). */
export function shareOf(spend: ContractSpend): number | null {
  if (spend.monthlyLimit === null) return null;
  const limit = microsOf(spend.monthlyLimit);
  if (limit === 0n) return 100;
  return Number((microsOf(spend.spent) * 100n) / limit);
}

export function spendText(spend: ContractSpend): string {
  const spent = formatMoney(spend.spent);
  const month = formatMonth(spend.month);
  if (spend.monthlyLimit === null) return `${spent} spent in ${month} (UTC); this contract has no monthly limit.`;
  return `${spent} of ${formatMoney(spend.monthlyLimit)} spent in ${month} (UTC): ${shareOf(spend)}%.`;
}

export function ContractSpendBar({ spend }: { spend: ContractSpend }) {
  const share = shareOf(spend);
  const text = spendText(spend);
  return (
    <Paper variant="outlined" sx={{ p: 2, my: 3, maxWidth: 720 }} component="section" aria-labelledby="spend-label">
      <Typography id="spend-label" component="h2" variant="h6">
        This month’s spend
      </Typography>
      {share !== null && (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, share)}
          color={share >= 100 ? 'error' : share >= 80 ? 'warning' : 'primary'}
          aria-labelledby="spend-label"
          aria-valuetext={text}
          sx={{ height: 10, borderRadius: 5, my: 1 }}
        />
      )}
      <Typography data-testid="spend-text">{text}</Typography>
      <Typography variant="body2" color="text.secondary">
        All of the organization’s calls this month, whichever of its contracts priced them.
      </Typography>
    </Paper>
  );
}
