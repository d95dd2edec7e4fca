/** The range's totals (issue 16): requests, match rate, identities and cost, and the chosen metric. */
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { METRIC_LABELS, type UsageMetric, type UsageTotals } from '@tessera/common/usage';
import { formatMetric, formatShare } from './format';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5, minWidth: 150, flex: '1 1 150px' }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={`total-${label}`}>
        {value}
      </Typography>
    </Paper>
  );
}

export function UsageTotalsRow({ totals, metric }: { totals: UsageTotals; metric: UsageMetric }) {
  const shown: UsageMetric[] = ['requests', 'identities', 'cost'];
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, mb: 2 }} component="section" aria-label="Totals">
      {shown.map((m) => (
        <Figure key={m} label={METRIC_LABELS[m]} value={formatMetric(m, totals[m])} />
      ))}
      <Figure label="Match rate" value={formatShare(totals.inputsWithIdentities, totals.inputs)} />
      {!shown.includes(metric) && <Figure label={METRIC_LABELS[metric]} value={formatMetric(metric, totals[metric])} />}
    </Stack>
  );
}
