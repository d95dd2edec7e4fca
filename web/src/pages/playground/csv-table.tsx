/**
 * A CSV reply as a table: the header row as columns, sortable by any column (numbers as numbers), paged with the
 * §9 data-table sizes (10, 25, 100, 250, 1000) from the stored items per page. It scrolls sideways inside its
 * own box, never the page.
 */
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
import { useMemo, useState } from 'react';
import { useSettings } from '../../lib/settings';

const NUMBER = /^-?\d+(\.\d+)?$/;

export function compareCells(a: string, b: string): number {
  if (NUMBER.test(a) && NUMBER.test(b)) return Number(a) - Number(b);
  return a.localeCompare(b, 'en', { numeric: true });
}

export function sortRows(rows: string[][], column: number, direction: 'asc' | 'desc'): string[][] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((x, y) => sign * compareCells(x.row[column] ?? '', y.row[column] ?? '') || x.i - y.i)
    .map((x) => x.row);
}

export function CsvTable({ header, rows }: { header: string[]; rows: string[][] }) {
  const stored = useSettings((s) => s.itemsPerPage);
  const [perPage, setPerPage] = useState(
    (TABLE_PAGE_SIZES as readonly number[]).includes(stored) ? stored : TABLE_PAGE_SIZES[2],
  );
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<{ column: number; direction: 'asc' | 'desc' } | null>(null);
  const sorted = useMemo(() => (sort ? sortRows(rows, sort.column, sort.direction) : rows), [rows, sort]);
  const last = Math.max(0, Math.ceil(sorted.length / perPage) - 1);
  const current = Math.min(page, last);
  // Keyed by place and name: a PUT reply may repeat a column name.
  const columns = useMemo(() => header.map((name, index) => ({ key: `${index}:${name}`, index })), [header]);
  const visible = sorted.slice(current * perPage, (current + 1) * perPage);
  const sortBy = (column: number) =>
    setSort(
      sort?.column === column
        ? { column, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
        : { column, direction: 'asc' },
    );
  return (
    <Paper variant="outlined" sx={{ minWidth: 0 }}>
      <TableContainer sx={{ maxHeight: 600 }} tabIndex={0} aria-label="CSV reply, scrollable">
        <Table size="small" stickyHeader aria-label="Identities" data-testid="csv-table">
          <TableHead>
            <TableRow>
              {header.map((name, i) => (
                <TableCell
                  // biome-ignore lint/suspicious/noArrayIndexKey: a PUT reply may repeat a column name
                  key={i}
                  sortDirection={sort?.column === i ? sort.direction : false}
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  <TableSortLabel
                    active={sort?.column === i}
                    direction={sort?.column === i ? sort.direction : 'asc'}
                    onClick={() => sortBy(i)}
                  >
                    {name}
                  </TableSortLabel>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
              <TableRow key={r} data-testid="csv-row">
                {columns.map((column) => (
                  <TableCell
                    key={column.key}
                    sx={{ whiteSpace: 'nowrap', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis' }}
                  >
                    {row[column.index] ?? ''}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={Math.max(1, header.length)}>No rows.</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={sorted.length}
        page={current}
        rowsPerPage={perPage}
        rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
