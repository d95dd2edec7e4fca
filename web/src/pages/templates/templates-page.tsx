/**
 * /templates: the templates the signed-in user sees (the system ones, their organization's, and those shared with
 * them; super+ all), with owner, the version lookups use, any pending draft, when it last changed and who may edit
 * it; filtered by name; each linked to its page and, for its editors, its editor.
 */
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { formatDate } from '@tessera/common/dates';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { mayEditTemplate, type Template } from '@tessera/common/templates';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { useFetch, useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { TEMPLATES_PATH } from './template-api';
import { draftLabel, editorsLabel, ownerLabel, publishedLabel, useNames, useTemplates } from './template-logic';

/** Templates whose name holds the filter, ignoring case and surrounding spaces. */
export function filterByName(templates: Template[], filter: string): Template[] {
  const wanted = filter.trim().toLowerCase();
  return wanted === '' ? templates : templates.filter((t) => t.name.toLowerCase().includes(wanted));
}

export default function TemplatesPage() {
  const self = useStore((s) => s.self);
  const list = useFetchState(TEMPLATES_PATH);
  useFetch(RESOURCE_PATHS.users);
  useFetch(RESOURCE_PATHS.organizations);
  const all = useTemplates();
  const { users, organizations } = useNames();
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => filterByName(all, filter), [all, filter]);
  const { visible, pager } = usePaging(rows);
  const mayCreate = self.organizationId !== null || self.role === 'super' || self.role === 'root';

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>Templates</PageHeading>
        {mayCreate && (
          <Button component={RouterLink} to="/templates/add" variant="contained" startIcon={<AddIcon />} sx={{ mb: 2 }}>
            New Template
          </Button>
        )}
      </Box>
      <TextField
        label="Filter by name"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        size="small"
        sx={{ mb: 2, width: 320, maxWidth: '100%' }}
        slotProps={{ htmlInput: { 'data-testid': 'template-filter' } }}
      />
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Templates">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Owner</TableCell>
              <TableCell>Published</TableCell>
              <TableCell>Pending Draft</TableCell>
              <TableCell>Updated</TableCell>
              <TableCell>Who May Edit</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((t) => (
              <TableRow key={t.id} data-testid="template-row" data-template-id={t.id}>
                <TableCell>
                  <Link component={RouterLink} to={`/templates/${t.id}`}>
                    {t.name}
                  </Link>
                </TableCell>
                <TableCell>{ownerLabel(t, organizations)}</TableCell>
                <TableCell>{publishedLabel(t)}</TableCell>
                <TableCell>{draftLabel(t)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(t.updatedAt)}</TableCell>
                <TableCell>{editorsLabel(t, users, organizations)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title="View">
                    <IconButton component={RouterLink} to={`/templates/${t.id}`} aria-label={`View ${t.name}`}>
                      <VisibilityIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {mayEditTemplate(self, t) && (
                    <Tooltip title="Edit">
                      <IconButton component={RouterLink} to={`/templates/edit/${t.id}`} aria-label={`Edit ${t.name}`}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={7} state={list} empty={rows.length === 0} what="the templates">
              {filter.trim() ? 'No template has that in its name.' : 'No templates.'}
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
