/** A query's result: its columns and rows, paged with the spec §9 sizes; long cells are cut (the CSV has them whole). */
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { QUERY_LIMITS, type QueryResult } from '@tessera/common/query-console';
import { EmptyRow } from '../empty-row';
import { usePaging } from '../table-pager';

function cell(value: string | null) {
  if (value === null) {
    return (
      <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        null
      </Typography>
    );
  }
  return value.length > QUERY_LIMITS.cellPreviewChars ? `${value.slice(0, QUERY_LIMITS.cellPreviewChars)}…` : value;
}

export function ResultsTable({ result }: { result: QueryResult }) {
  const { visible, pager } = usePaging(result.rows);
  const offset = result.rows.indexOf(visible[0] as (string | null)[]);
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Query result" data-testid="query-result">
        <TableHead>
          <TableRow>
            {result.columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a result's rows and columns are positional; they never reorder
              <TableCell key={`${i}-${column.name}`} sx={{ whiteSpace: 'nowrap' }}>
                {column.name}
                <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }}>
                  {column.type}
                </Typography>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {visible.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a result's rows and columns are positional; they never reorder
            <TableRow key={offset + r}>
              {row.map((value, i) => (
                <TableCell
                  // biome-ignore lint/suspicious/noArrayIndexKey: a result's rows and columns are positional; they never reorder
                  key={`${i}-${result.columns[i]?.name}`}
                  sx={{
                    fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
                    whiteSpace: 'pre-wrap',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {cell(value)}
                </TableCell>
              ))}
            </TableRow>
          ))}
          {result.rows.length === 0 && <EmptyRow columns={Math.max(1, result.columns.length)}>No rows.</EmptyRow>}
        </TableBody>
      </Table>
      {pager}
    </TableContainer>
  );
}
