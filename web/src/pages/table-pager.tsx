/** Paging for the console's tables (spec §9): the stored items per page, with the data-table size options. */
import TablePagination from '@mui/material/TablePagination';
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { type ReactNode, useState } from 'react';
import { useSettings } from '../lib/settings';

export function usePaging<T>(rows: T[]): { visible: T[]; pager: ReactNode } {
  const perPage = useSettings((s) => s.itemsPerPage);
  const update = useSettings((s) => s.update);
  const [page, setPage] = useState(0);
  const last = Math.max(0, Math.ceil(rows.length / perPage) - 1);
  const current = Math.min(page, last); // rows removed from the last page leave it
  const visible = rows.slice(current * perPage, (current + 1) * perPage);
  const pager =
    rows.length > TABLE_PAGE_SIZES[0] ? (
      <TablePagination
        component="div"
        count={rows.length}
        page={current}
        rowsPerPage={perPage}
        rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          update({ itemsPerPage: Number(e.target.value) });
          setPage(0);
        }}
      />
    ) : null;
  return { visible, pager };
}
