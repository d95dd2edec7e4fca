/**
 * The calls of the range (issue 16): the spec's default columns (time, user, organization, method, path, inputs and
 * metrics) and the chosen metric; from the column chooser the key and the outcome (issue 32) and any metric; users,
 * organizations and keys by name, linked where the viewer may open them; sorted by the server on time or any
 * metric; paged by the server's cursors with the §9 page sizes.
 */
import CheckIcon from '@mui/icons-material/Check';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { formatDate } from '@tessera/common/dates';
import {
  CALL_METRICS,
  callLabel,
  callOutcome,
  METRIC_LABELS,
  type UsageCall,
  type UsageMetric,
} from '@tessera/common/usage';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyRow } from '../empty-row';
import { callSummary } from './call-summary';
import { formatMetric } from './format';
import type { CallColumn } from './usage-query';

const CHOOSABLE: readonly CallColumn[] = ['key', 'status', ...CALL_METRICS, 'cost'];
const DETAIL_LABELS: Record<string, string> = { key: 'Key', status: 'Status' };
const columnLabel = (c: CallColumn) => DETAIL_LABELS[c] ?? METRIC_LABELS[c as UsageMetric];

/** The metric columns shown: inputs, the chosen metric (requests is 1 for every call) and the extra ones. */
export function metricColumns(metric: UsageMetric, extra: readonly CallColumn[]): UsageMetric[] {
  const out: UsageMetric[] = ['inputs'];
  if (metric !== 'requests' && !out.includes(metric)) out.push(metric);
  for (const m of extra)
    if (!(m in DETAIL_LABELS) && m !== 'requests' && !out.includes(m as UsageMetric)) out.push(m as UsageMetric);
  return out;
}

export interface CallsTableProps {
  calls: UsageCall[];
  loaded: boolean;
  total: number;
  page: number;
  hasNext: boolean;
  pageSize: number;
  sort: string;
  metric: UsageMetric;
  columns: CallColumn[];
  onPage(next: number): void;
  onPageSize(size: number): void;
  onSort(sort: string): void;
  onColumns(columns: CallColumn[]): void;
}

export function CallsTable(props: CallsTableProps) {
  const { calls, sort, metric, columns } = props;
  const [chooser, setChooser] = useState<HTMLElement | null>(null);
  const shown = metricColumns(metric, columns);
  const withKey = columns.includes('key');
  const withStatus = columns.includes('status');
  const isShown = (c: CallColumn) => (c in DETAIL_LABELS ? columns.includes(c) : shown.includes(c as UsageMetric));
  const field = sort.replace(/^-/, '');
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const sortBy = (name: string) => () =>
    props.onSort(field === name ? (direction === 'desc' ? name : `-${name}`) : `-${name}`);
  const toggle = (m: CallColumn) =>
    props.onColumns(columns.includes(m) ? columns.filter((c) => c !== m) : [...columns, m]);

  return (
    <TableContainer component={Paper} variant="outlined">
      <Button
        size="small"
        startIcon={<ViewColumnIcon />}
        onClick={(e) => setChooser(e.currentTarget)}
        aria-haspopup="menu"
        sx={{ m: 1 }}
      >
        Columns
      </Button>
      <Menu anchorEl={chooser} open={chooser !== null} onClose={() => setChooser(null)}>
        {CHOOSABLE.map((m) => (
          <MenuItem
            key={m}
            dense
            role="menuitemcheckbox"
            aria-checked={isShown(m)}
            onClick={() => toggle(m)}
            disabled={m === 'inputs' || m === metric}
          >
            <ListItemIcon>{isShown(m) && <CheckIcon fontSize="small" />}</ListItemIcon>
            <ListItemText primary={columnLabel(m)} />
          </MenuItem>
        ))}
      </Menu>
      <Table size="small" aria-label="Calls">
        <TableHead>
          <TableRow>
            <TableCell sortDirection={field === 'at' ? direction : false}>
              <TableSortLabel
                active={field === 'at'}
                direction={field === 'at' ? direction : 'desc'}
                onClick={sortBy('at')}
              >
                Time
              </TableSortLabel>
            </TableCell>
            <TableCell>User</TableCell>
            <TableCell>Organization</TableCell>
            {withKey && <TableCell>Key</TableCell>}
            <TableCell>Method</TableCell>
            <TableCell>Path</TableCell>
            {withStatus && <TableCell>Status</TableCell>}
            {shown.map((m) => (
              <TableCell key={m} align="right" sortDirection={field === m ? direction : false}>
                <TableSortLabel active={field === m} direction={field === m ? direction : 'desc'} onClick={sortBy(m)}>
                  {METRIC_LABELS[m]}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell>Metrics</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {calls.map((call) => (
            <TableRow key={call.id} data-testid="call-row">
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(call.at)}</TableCell>
              <TableCell>
                <NameLink to={call.userName === null ? null : `/users/${call.userId}`}>
                  {call.userName ?? `User ${call.userId}`}
                </NameLink>
              </TableCell>
              <TableCell>
                {call.organizationId !== null && (
                  <NameLink to={call.organizationName === null ? null : `/organizations/${call.organizationId}`}>
                    {call.organizationName ?? `Organization ${call.organizationId}`}
                  </NameLink>
                )}
              </TableCell>
              {withKey && (
                <TableCell>
                  {call.keyId === null ? (
                    'Console'
                  ) : (
                    <NameLink to={call.keyName === null ? null : `/keys/${call.keyId}`}>
                      {call.keyName ?? call.keyId}
                    </NameLink>
                  )}
                </TableCell>
              )}
              <TableCell>{call.method}</TableCell>
              <TableCell>{callLabel(call.path)}</TableCell>
              {withStatus && (
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {callOutcome(call.status)} ({call.status})
                </TableCell>
              )}
              {shown.map((m) => (
                <TableCell key={m} align="right">
                  {formatMetric(m, call[m as keyof UsageCall] as number)}
                </TableCell>
              ))}
              <TableCell sx={{ minWidth: 200 }}>{callSummary(call, shown).join(', ')}</TableCell>
            </TableRow>
          ))}
          {props.loaded && calls.length === 0 && (
            <EmptyRow columns={6 + shown.length + Number(withKey) + Number(withStatus)}>
              No calls in this range.
            </EmptyRow>
          )}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={props.total}
        page={props.page}
        rowsPerPage={props.pageSize}
        rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
        onPageChange={(_, next) => props.onPage(next)}
        onRowsPerPageChange={(e) => props.onPageSize(Number(e.target.value))}
        slotProps={{ actions: { nextButton: { disabled: !props.hasNext } } }}
      />
    </TableContainer>
  );
}

/** A name linking to its page, or plain text where the viewer may not open it. */
function NameLink(props: { to: string | null; children: string }) {
  if (props.to === null) return props.children;
  return (
    <Link component={RouterLink} to={props.to}>
      {props.children}
    </Link>
  );
}
