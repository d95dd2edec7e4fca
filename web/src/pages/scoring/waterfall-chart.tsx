/**
 * The score built up field by field, drawn as a waterfall (horizontal bars: long labels fit a phone): each bar
 * starts where the previous ended; rises are green, falls red, and the last bar is the score itself. A table below
 * gives the same numbers in text, for screen readers and anyone who prefers figures.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Step } from './waterfall';

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0');

export default function WaterfallChart({
  steps,
  score,
  level,
}: {
  steps: Step[];
  score: number;
  level: (s: Step) => string;
}) {
  const theme = useTheme();
  const labels = [...steps.map((s) => s.label), 'Score'];
  const base = [...steps.map((s) => Math.min(s.from, s.to)), 0];
  // The prior is where the score starts, drawn apart from the fields' rises.
  const start = [...steps.map((s) => (s.key === 'prior' ? s.delta : 0)), 0];
  const rise = [...steps.map((s) => (s.key === 'prior' ? 0 : Math.max(0, s.delta))), 0];
  const fall = [...steps.map((s) => Math.max(0, -s.delta)), 0];
  const final = [...steps.map(() => 0), score];
  const description = steps.map((s) => `${s.label} ${signed(s.delta)}`).join(', ');
  return (
    <Box data-testid="waterfall">
      <Box role="img" aria-label={`Score waterfall: ${description}; score ${score}.`} sx={{ minWidth: 0 }}>
        <BarChart
          height={40 * labels.length + 70}
          layout="horizontal"
          skipAnimation
          hideLegend
          yAxis={[{ scaleType: 'band', data: labels, width: 110 }]}
          xAxis={[{ min: 0, max: 100, label: 'score (0-100)' }]}
          series={[
            { data: base, stack: 'w', color: 'transparent', valueFormatter: () => null, label: 'start' },
            { data: start, stack: 'w', color: theme.palette.grey[600], label: 'prior' },
            { data: rise, stack: 'w', color: theme.palette.success.main, label: 'raises the score' },
            { data: fall, stack: 'w', color: theme.palette.error.main, label: 'lowers the score' },
            { data: final, stack: 'w', color: theme.palette.primary.main, label: 'score' },
          ]}
          margin={{ right: 16 }}
        />
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Each field's share of the score" data-testid="waterfall-table">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Step
              </TableCell>
              <TableCell component="th" scope="col">
                Level
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                Bits
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                Score points
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {steps.map((s) => (
              <TableRow key={s.key} data-testid={`step-${s.key}`}>
                <TableCell component="th" scope="row">
                  {s.label}
                </TableCell>
                <TableCell>{level(s)}</TableCell>
                <TableCell align="right">{s.bits.toFixed(2)}</TableCell>
                <TableCell align="right" data-testid="step-delta" data-value={s.delta}>
                  {signed(s.delta)}
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                Score
              </TableCell>
              <TableCell />
              <TableCell align="right">{steps.reduce((sum, s) => sum + s.bits, 0).toFixed(2)}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="waterfall-score">
                {score}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
