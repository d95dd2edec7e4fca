/** One host's task: status, progress, times and its log, which grows live as the command writes. */
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { Task } from '@tessera/common/deployments';
import { useEffect, useRef } from 'react';
import { StatusChip } from './status-chip';

export function TaskCard({ task }: { task: Task }) {
  const log = useRef<HTMLPreElement>(null);
  const { output } = task;
  // Follow the end of the log as it streams in.
  useEffect(() => {
    const el = log.current;
    if (el && output !== '') el.scrollTop = el.scrollHeight;
  }, [output]);
  const label = `Progress of ${task.host}`;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="task" data-key={task.key} data-status={task.status}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography component="h3" variant="subtitle1" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {task.host}
        </Typography>
        <StatusChip status={task.status} />
        <Typography variant="body2" color="text.secondary">
          {task.step}
          {task.startedAt ? ` · started ${formatDate(task.startedAt)}` : ''}
          {task.finishedAt ? ` · ended ${formatDate(task.finishedAt)}` : ''}
          {task.exitCode !== null ? ` · exit ${task.exitCode}` : ''}
        </Typography>
      </Stack>
      <Stack direction="row" spacing={2} sx={{ my: 1, alignItems: 'center' }}>
        <Box sx={{ flex: 1 }}>
          <LinearProgress variant="determinate" value={task.progress} aria-label={label} />
        </Box>
        <Typography variant="body2">{task.progress}%</Typography>
      </Stack>
      {task.output !== '' && (
        <Box
          component="pre"
          ref={log}
          tabIndex={0}
          aria-label={`Log of ${task.host}`}
          data-testid="task-log"
          sx={{
            m: 0,
            p: 1,
            maxHeight: 240,
            overflow: 'auto',
            fontSize: 12,
            bgcolor: 'action.hover',
            borderRadius: 1,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {task.output}
        </Box>
      )}
    </Paper>
  );
}
