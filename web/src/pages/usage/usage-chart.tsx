/** The usage page's chart (issue 16): the chosen metric by interval over the range, in the browser's time zone. */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import { formatDate } from '@tessera/common/dates';
import { METRIC_LABELS, type UsageInterval, type UsageMetric, type UsagePoint } from '@tessera/common/usage';
import { formatMetric } from './format';

const TICK_FORMAT: Record<UsageInterval, string> = { hour: 'M/D h:mma', day: 'M/D', week: 'M/D', month: 'M/YY' };

export function UsageChart(props: { points: UsagePoint[]; metric: UsageMetric; interval: UsageInterval }) {
  const { points, metric, interval } = props;
  const label = METRIC_LABELS[metric];
  const theme = useTheme();
  return (
    <Box data-testid="usage-chart" role="img" aria-label={`${label} by ${interval}, ${points.length} points`}>
      <LineChart
        height={300}
        skipAnimation
        xAxis={[
          {
            scaleType: 'time',
            data: points.map((p) => new Date(p.at)),
            valueFormatter: (value: Date) => formatDate(value, TICK_FORMAT[interval]),
          },
        ]}
        yAxis={[{ valueFormatter: (value: number) => formatMetric(metric, value, true) }]}
        series={[
          {
            data: points.map((p) => p.value),
            label,
            color: theme.palette.primary.main,
            area: true,
            showMark: points.length <= 60,
            valueFormatter: (value) => (value === null ? '' : formatMetric(metric, value)),
          },
        ]}
      />
    </Box>
  );
}
