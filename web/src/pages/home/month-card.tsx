/**
 * This month on the home page (issue 16): requests, match rate, identities returned and cost, the cost against the
 * contract's monthly limit as a bar with its figures as text, and, before the first call, how to make one.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Contract } from '@tessera/common/contracts';
import { formatDate } from '@tessera/common/dates';
import type { UsageTotals } from '@tessera/common/usage';
import { Link as RouterLink } from 'react-router';
import { formatMetric, formatShare } from '../../lib/usage-format';
import type { Who } from '../../lib/usage-scope';
import { type HomeUsage, percentText } from './home-data';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="h5" component="dd" data-testid={testId} sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** Whose calls the figures count, in words. */
export function scopeText(who: Who, organizationName: string): string {
  if (who === 'all') return 'every organization’s calls';
  if (who === 'organization')
    return organizationName ? `calls by everyone in ${organizationName}` : 'your organization’s calls';
  return 'your own calls';
}

export interface LimitProps {
  who: Who;
  organizationId: number | null;
  organizationName: string;
  /** Undefined while the contracts load. */
  contract: Contract | null | undefined;
  cost: number;
}

/** The cost against the monthly limit, or a plain sentence saying why there is no bar. */
/** Why there is no bar to show, or null when there is one. */
export function noLimitText({ who, organizationId, contract }: Omit<LimitProps, 'cost' | 'organizationName'>) {
  if (who === 'all') return 'Monthly limits are set per organization by its contract; these figures cover them all.';
  if (organizationId === null) return 'You do not belong to an organization, so no contract sets a monthly limit.';
  if (contract === undefined) return 'Loading the contract…';
  if (contract === null) return 'Your organization has no contract in force, so there is no monthly limit.';
  if (contract.monthlyLimit === null) return 'Your organization’s contract has no monthly limit.';
  return null;
}

export function MonthlyLimit(props: LimitProps) {
  const { who, organizationName, contract, cost } = props;
  const plain = noLimitText(props);
  const limit = contract?.monthlyLimit;
  if (plain !== null || limit === null || limit === undefined) {
    return (
      <Typography color="textSecondary" data-testid="limit-text" sx={{ mt: 2 }}>
        {plain}
      </Typography>
    );
  }
  const share = limit > 0 ? (cost / limit) * 100 : 100;
  const text = `${formatMetric('cost', cost)} of ${formatMetric('cost', limit)} (${percentText(cost, limit)})`;
  const color = share >= 100 ? 'error' : share >= 80 ? 'warning' : 'primary';
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id="limit-label" variant="body2" color="textSecondary">
        Cost against the monthly limit
      </Typography>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, share)}
        color={color}
        aria-labelledby="limit-label"
        aria-valuetext={text}
        sx={{ height: 10, borderRadius: 5, my: 0.75 }}
      />
      <Typography data-testid="limit-text">{text}</Typography>
      {who === 'me' && (
        <Typography variant="body2" color="textSecondary">
          Your own calls; the limit is shared by everyone in {organizationName || 'your organization'}.
        </Typography>
      )}
    </Box>
  );
}

export function MonthCard(props: { usage: HomeUsage | null } & Omit<LimitProps, 'cost'>) {
  const { usage, ...limit } = props;
  const totals: UsageTotals | undefined = usage?.totals;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="month-heading" sx={{ p: 2, height: '100%' }}>
      <Typography variant="h6" component="h2" id="month-heading">
        This month
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        {usage
          ? `Since ${formatDate(usage.since)}, ${scopeText(limit.who, limit.organizationName)}.`
          : 'Loading this month’s usage…'}
      </Typography>
      {totals && (
        <>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
            }}
          >
            <Figure label="Requests" value={formatMetric('requests', totals.requests)} testId="home-requests" />
            <Figure
              label="Match rate"
              value={formatShare(totals.inputsWithIdentities, totals.inputs)}
              testId="home-match-rate"
            />
            <Figure
              label="Identities returned"
              value={formatMetric('identities', totals.identities)}
              testId="home-identities"
            />
            <Figure label="Cost" value={formatMetric('cost', totals.cost)} testId="home-cost" />
          </Box>
          <MonthlyLimit {...limit} cost={totals.cost} />
          {totals.requests === 0 && <FirstCall />}
        </>
      )}
    </Paper>
  );
}

function FirstCall() {
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="home-empty">
      No calls yet this month. To make your first one,{' '}
      <Link component={RouterLink} to="/keys/add">
        create an API key
      </Link>{' '}
      and send it in the Authorization header of a lookup, or try the API in the{' '}
      <Link component={RouterLink} to="/playground">
        playground
      </Link>
      .
    </Alert>
  );
}
