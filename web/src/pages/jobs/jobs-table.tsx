/**
 * The jobs table (issue 33 item 3), newest first: when each was made (and its id), its endpoint and result format,
 * its status in words (the chip's colour only repeats it) with why it failed, its rows done of the total as a
 * labelled progress bar, the rows matched and failed, its rate and time left, its cost; and what can be done: Cancel
 * while it runs, Download once it ended, "Expired" once its result was deleted.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { formatDate } from '@tessera/common/dates';
import type { Job } from '@tessera/common/jobs';
import { formatMoney } from '@tessera/common/money';
import type { ReactNode } from 'react';
import type { FetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import {
  FORMAT_LABEL,
  formatCount,
  formatEta,
  formatRate,
  isActive,
  jobAction,
  NONE,
  progressFigures,
  progressPercent,
  progressText,
  STATUS_COLOR,
  STATUS_LABEL,
} from './job-format';

const COLUMNS = 11;

/** Read by screen readers, not shown; its cell is positioned, so it stays inside the scrolling table. */
const visuallyHidden = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const mono = { fontFamily: 'monospace' } as const;

export function JobStatus({ job }: { job: Job }) {
  return (
    <>
      <Chip
        size="small"
        variant="outlined"
        color={STATUS_COLOR[job.status]}
        label={STATUS_LABEL[job.status]}
        data-testid="job-status"
      />
      {job.error && (
        <Typography variant="body2" data-testid="job-error" sx={{ mt: 0.5, maxWidth: 280, overflowWrap: 'anywhere' }}>
          {job.error}
        </Typography>
      )}
    </>
  );
}

function JobProgress({ job }: { job: Job }) {
  const text = progressText(job);
  return (
    <Box sx={{ minWidth: 120 }}>
      <LinearProgress
        variant="determinate"
        value={progressPercent(job)}
        aria-label={`Rows done of job ${job.id}`}
        aria-valuetext={text}
        sx={{ height: 8, borderRadius: 1, mb: 0.5 }}
      />
      <Typography variant="body2" data-testid="job-rows" sx={{ whiteSpace: 'nowrap' }}>
        {progressFigures(job)}
      </Typography>
    </Box>
  );
}

function JobAction({ job, now, onCancel }: { job: Job; now: number; onCancel: (job: Job) => void }) {
  const action = jobAction(job, now);
  if (action === 'cancel') {
    return (
      <Button size="small" color="error" onClick={() => onCancel(job)} aria-label={`Cancel job ${job.id}`}>
        Cancel
      </Button>
    );
  }
  if (action === 'download') {
    return (
      <Link
        href={job.resultUrl ?? undefined}
        download
        aria-label={`Download the result of job ${job.id}`}
        sx={{ whiteSpace: 'nowrap' }}
      >
        Download
      </Link>
    );
  }
  if (action === 'expired') {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="job-expired" sx={{ whiteSpace: 'nowrap' }}>
        Expired
      </Typography>
    );
  }
  return null;
}

export function JobsTable({
  jobs,
  load,
  onCancel,
  pager,
}: {
  jobs: Job[];
  load: FetchState;
  onCancel: (job: Job) => void;
  pager: ReactNode;
}) {
  const now = Date.now();
  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Bulk jobs table">
      <Table
        size="small"
        aria-label="Bulk jobs"
        sx={{ '& th, & td': { px: 1 }, '& th:first-of-type, & td:first-of-type': { pl: 2 } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>Created</TableCell>
            <TableCell>Endpoint</TableCell>
            <TableCell>Format</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Rows</TableCell>
            <TableCell align="right">Matched</TableCell>
            <TableCell align="right">Failed</TableCell>
            <TableCell align="right">Rows/s</TableCell>
            <TableCell>Time Left</TableCell>
            <TableCell align="right">Cost</TableCell>
            <TableCell sx={{ position: 'relative' }}>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {jobs.map((job) => (
            <TableRow key={job.id} data-testid="job-row" data-job-id={job.id} data-status={job.status}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatDate(job.createdAt)}
                <Typography variant="caption" component="div" color="text.secondary" sx={mono}>
                  {job.id}
                </Typography>
              </TableCell>
              <TableCell sx={mono}>{job.endpoint}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{FORMAT_LABEL[job.format]}</TableCell>
              <TableCell>
                <JobStatus job={job} />
              </TableCell>
              <TableCell>
                <JobProgress job={job} />
              </TableCell>
              <TableCell align="right" data-testid="job-matched">
                {formatCount(job.rows.matched)}
              </TableCell>
              <TableCell align="right" data-testid="job-failed">
                {formatCount(job.rows.failed)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} data-testid="job-rate">
                {formatRate(job.rowsPerSecond)}
              </TableCell>
              <TableCell sx={{ minWidth: 90 }} data-testid="job-eta">
                {isActive(job) ? formatEta(job.etaSeconds) : NONE}
              </TableCell>
              <TableCell align="right" data-testid="job-cost">
                {formatMoney(job.cost)}
              </TableCell>
              <TableCell>
                <JobAction job={job} now={now} onCancel={onCancel} />
              </TableCell>
            </TableRow>
          ))}
          <ListStatusRow columns={COLUMNS} state={load} empty={false} what="the bulk jobs">
            No bulk jobs.
          </ListStatusRow>
        </TableBody>
      </Table>
      {pager}
    </TableContainer>
  );
}
