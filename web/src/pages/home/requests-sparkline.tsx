/**
 * The last 30 days' requests per day on the home page (issue 16), as a sparkline whose text (the total and the
 * busiest day) is also its accessible name. The charts library is imported here only, so it loads with this page.
 */
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { SparkLineChart } from '@mui/x-charts/SparkLineChart';
import { DAY_FORMAT as DAY, formatDate } from '@tessera/common/dates';
import type { UsagePoint } from '@tessera/common/usage';
import { Link as RouterLink } from 'react-router';
import { formatMetric } from '../../lib/usage-format';
import { SPARK_DAYS, seriesSummary } from './home-data';

/** The sparkline in words: the total, and the busiest day when there was one. */
export function sparklineText(points: UsagePoint[]): string {
  const { total, peak } = seriesSummary(points);
  const requests = `${formatMetric('requests', total)} ${total === 1 ? 'request' : 'requests'}`;
  if (!peak) return `No requests in the last ${SPARK_DAYS} days.`;
  return `${requests} in the last ${SPARK_DAYS} days; the busiest day was ${formatDate(peak.at, DAY)} with ${formatMetric('requests', peak.value)}.`;
}

export function RequestsSparkline({ points }: { points: UsagePoint[] | null }) {
  const theme = useTheme();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="spark-heading" sx={{ p: 2, height: '100%' }}>
      <Typography variant="h6" component="h2" id="spark-heading">
        Requests per day
      </Typography>
      {points === null ? (
        <Typography variant="body2" color="textSecondary">
          Loading…
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="textSecondary">
            {points.length > 0
              ? `${formatDate(points[0]!.at, DAY)} to ${formatDate(points.at(-1)!.at, DAY)}`
              : `The last ${SPARK_DAYS} days`}
          </Typography>
          <Box role="img" aria-labelledby="spark-text" data-testid="home-sparkline" sx={{ my: 1 }}>
            <SparkLineChart
              data={points.map((p) => p.value)}
              xAxis={{ scaleType: 'point', data: points.map((p) => new Date(p.at)) }}
              // Zero at the foot, so an idle month is a line along the bottom rather than across the middle.
              yAxis={{ min: 0, ...(points.some((p) => p.value > 0) ? {} : { max: 1 }) }}
              height={72}
              area
              curve="linear"
              color={theme.palette.primary.main}
              skipAnimation
            />
          </Box>
          <Typography id="spark-text" data-testid="home-sparkline-text">
            {sparklineText(points)}
          </Typography>
          <Link component={RouterLink} to="/usage" sx={{ display: 'inline-block', mt: 1 }}>
            Open usage
          </Link>
        </>
      )}
    </Paper>
  );
}
