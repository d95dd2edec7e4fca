/**
 * A comma-separated id list's view (spec §2 resource route pattern; issue 32 item 8): the records named, one row
 * each, linking to each record's own page. The records come from one call (the resource's comma-list GET, or its
 * list for keys and templates) and are all shown or none: an id missing or out of reach is the error page's 404,
 * as the server's refusal of the list is, so the page tells nothing about records of another organization.
 */
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { navigate } from '../lib/navigator';
import { useStore } from '../lib/store';
import { useFetchState } from '../lib/use-fetch';
import { ListStatusRow } from './empty-row';
import { PageHeading } from './page-heading';

export interface ResourceColumn<T> {
  label: string;
  value(item: T): ReactNode;
}

export interface ResourceListProps<T> {
  /** The resource's plural name, for the heading and the table: "Users". */
  plural: string;
  /** The store's data area: "users". */
  area: string;
  ids: (number | string)[];
  /** The call that loads them all. */
  path: string;
  /** The record's own page. */
  href(item: T): string;
  /** The first column's text, the link. */
  name(item: T): string;
  columns: ResourceColumn<T>[];
}

export function ResourceList<T>({ plural, area, ids, path, href, name, columns }: ResourceListProps<T>) {
  const stored = useStore((s) => s.areas[area]) as Record<string, T> | undefined;
  const load = useFetchState(path);
  const items = ids.map((id) => stored?.[String(id)]).filter((item): item is T => item !== undefined);
  const complete = items.length === ids.length;
  useEffect(() => {
    if (load.status === 'loaded' && !complete) navigate('/error/404', { replace: true });
  }, [load.status, complete]);

  return (
    <>
      <PageHeading>{`${ids.length} ${plural}`}</PageHeading>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={plural}>
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              {columns.map((c) => (
                <TableCell key={c.label}>{c.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {complete &&
              items.map((item) => (
                <TableRow key={href(item)} data-testid="listed-record">
                  <TableCell>
                    <Link component={RouterLink} to={href(item)}>
                      {name(item)}
                    </Link>
                  </TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.label}>{c.value(item)}</TableCell>
                  ))}
                </TableRow>
              ))}
            <ListStatusRow
              columns={columns.length + 1}
              state={load}
              empty={!complete}
              what={`the ${plural.toLowerCase()}`}
            >
              {`No ${plural.toLowerCase()}.`}
            </ListStatusRow>
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
