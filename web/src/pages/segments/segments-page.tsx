/**
 * Segments (spec §2, issue 19; super+): a tabbed page. Each tab is one entry of SEGMENT_TABS (add an entry to add a
 * tab); the open tab is kept in the query string (?tab=), so a link or a reload opens it again.
 */
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeading } from '../page-heading';
import { SegmentsTab } from './segments-tab';
import { SuppressionsTab } from './suppressions/suppressions-tab';

export interface PageTab {
  id: string;
  label: string;
  render: () => ReactNode;
}

export const SEGMENT_TABS: readonly PageTab[] = [
  { id: 'segments', label: 'Segments', render: () => <SegmentsTab /> },
  { id: 'suppressions', label: 'Suppressions', render: () => <SuppressionsTab /> },
];

export default function SegmentsPage() {
  const [search, setSearch] = useSearchParams();
  const open = SEGMENT_TABS.find((t) => t.id === search.get('tab')) ?? SEGMENT_TABS[0]!;
  const select = (id: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <PageHeading>Segments</PageHeading>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs value={open.id} onChange={(_e, id: string) => select(id)} aria-label="Segments sections">
          {SEGMENT_TABS.map((t) => (
            <Tab key={t.id} value={t.id} label={t.label} id={`tab-${t.id}`} aria-controls={`tabpanel-${t.id}`} />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`tabpanel-${open.id}`} aria-labelledby={`tab-${open.id}`}>
        {open.render()}
      </Box>
    </>
  );
}
