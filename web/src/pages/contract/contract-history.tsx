/** A contract's history, newest first: when, who, and each changed field's value before and after. */
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  CONTRACT_FIELD_LABELS,
  CONTRACT_STATUS_LABELS,
  type ContractChange,
  type ContractStatus,
} from '@tessera/common/contracts';
import { formatDate, formatDay } from '@tessera/common/dates';
import { EmptyRow } from '../empty-row';
import { money } from './contract-values';

const ACTIONS = { created: 'Created', updated: 'Changed', deleted: 'Deleted' } as const;
const MONEY = new Set(['pricePerRequest', 'pricePerIdentity', 'monthlyLimit', 'pricePerEvent']);

/** A field's value as the page shows it. */
export function shown(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (MONEY.has(field) && typeof value === 'number') return money(value);
  if ((field === 'startsAt' || field === 'endsAt') && typeof value === 'string') return formatDay(value);
  if (field === 'status') return CONTRACT_STATUS_LABELS[value as ContractStatus] ?? String(value);
  if (field === 'rateLimit' && typeof value === 'number') return `${value.toLocaleString('en-US')} a minute`;
  if (field === 'subscriptionLimit' && typeof value === 'number') return value.toLocaleString('en-US');
  if (field === 'groupPrices' && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, number>);
    return entries.length ? entries.map(([g, p]) => `${g} ${money(p)}`).join(', ') : 'none';
  }
  return String(value);
}

export function ContractHistory({ changes }: { changes: ContractChange[] }) {
  const newest = [...changes].sort((a, b) => b.id - a.id);
  return (
    <section aria-labelledby="history-heading">
      <Typography variant="h5" component="h2" id="history-heading" sx={{ mt: 4, mb: 1 }}>
        History
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Contract history">
          <TableHead>
            <TableRow>
              <TableCell>Time</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Change</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {newest.map((c) => (
              <TableRow key={c.id} data-testid="history-row">
                <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDate(c.at)}</TableCell>
                <TableCell sx={{ verticalAlign: 'top' }}>
                  {c.userName ?? (c.userId ? `User ${c.userId}` : 'System')}
                </TableCell>
                <TableCell>
                  <strong>{ACTIONS[c.action]}</strong>
                  {c.action === 'updated' && (
                    <ul style={{ margin: 0, paddingLeft: '1.25em' }}>
                      {Object.entries(c.changes).map(([field, { from, to }]) => (
                        <li key={field}>
                          {CONTRACT_FIELD_LABELS[field] ?? field}: {shown(field, from)} → {shown(field, to)}
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {newest.length === 0 && <EmptyRow columns={3}>No changes recorded yet.</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
    </section>
  );
}
