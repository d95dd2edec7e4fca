/**
 * What a table shows when it has no rows: a muted sentence across every column (`EmptyRow`), or, through
 * `ListStatusRow`, whatever its load says: the error with a Retry when it failed (never the empty sentence over a
 * failure, issue 32 item 6), the sentence once loaded with nothing, nothing while loading.
 */
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { FetchState } from '../lib/use-fetch';
import { LoadError, showsLoadError } from './load-error';

export function EmptyRow({ columns, children }: { columns: number; children: string }) {
  return (
    <TableRow>
      <TableCell colSpan={columns}>
        <Typography color="text.secondary">{children}</Typography>
      </TableCell>
    </TableRow>
  );
}

export interface ListStatusRowProps {
  columns: number;
  /** The list's load. */
  state: Pick<FetchState, 'status' | 'error' | 'retry'>;
  /** Whether the table has no rows to show. */
  empty: boolean;
  /** What failed to load, for the error's title: "the templates". */
  what: string;
  /** The empty sentence. */
  children: string;
}

export function ListStatusRow({ columns, state, empty, what, children }: ListStatusRowProps) {
  if (showsLoadError(state)) {
    return (
      <TableRow>
        <TableCell colSpan={columns} sx={{ p: 1 }}>
          {/* A narrow window scrolls a wide table sideways: the error and its Retry stay in view at its left. */}
          <LoadError
            what={what}
            error={state.error}
            retrying={state.status === 'loading'}
            onRetry={state.retry}
            sx={{ position: 'sticky', left: 8, maxWidth: { xs: 'calc(100vw - 48px)', md: 'none' } }}
          />
        </TableCell>
      </TableRow>
    );
  }
  return state.status === 'loaded' && empty ? <EmptyRow columns={columns}>{children}</EmptyRow> : null;
}
