/**
 * A template's published versions, newest first: each can be viewed (its expression, read-only) and, by an editor,
 * restored as the draft (POST /v2/templates/{id}/restore), which replaces any open draft.
 */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { Template } from '@tessera/common/templates';
import { Fragment, useState } from 'react';
import { ApiError } from '../../lib/api';
import { useStore } from '../../lib/store';
import { EmptyRow } from '../empty-row';
import { CodeBox } from './code-box';
import { restoreVersion } from './template-api';
import { principalLabel, useNames } from './template-logic';

export function VersionHistory({ template, mayRestore }: { template: Template; mayRestore: boolean }) {
  const versions = template.versions ?? [];
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const { users, organizations } = useNames();

  async function restore(version: number) {
    setBusy(true);
    try {
      await restoreVersion(template.id, version);
      useStore.getState().addAlert({
        type: 'success',
        title: 'Draft Restored',
        text: `Version ${version} of ${template.name} is now its draft.`,
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // alerted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="versions-heading">
      <Typography variant="h5" component="h2" id="versions-heading" sx={{ mt: 4, mb: 1 }}>
        Version History
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Published versions">
          <TableHead>
            <TableRow>
              <TableCell>Version</TableCell>
              <TableCell>Published</TableCell>
              <TableCell>By</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {versions.map((v) => (
              <Fragment key={v.version}>
                <TableRow data-testid="version-row" data-version={v.version}>
                  <TableCell>
                    {v.version}
                    {v.version === template.publishedVersion ? ' (in use)' : ''}
                  </TableCell>
                  <TableCell>{formatDate(v.publishedAt)}</TableCell>
                  <TableCell>
                    {v.createdBy === null ? 'System' : principalLabel(v.createdBy, users, organizations)}
                  </TableCell>
                  <TableCell align="right">
                    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                      <Button
                        size="small"
                        aria-expanded={open === v.version}
                        aria-label={`${open === v.version ? 'Hide' : 'View'} version ${v.version}`}
                        onClick={() => setOpen(open === v.version ? null : v.version)}
                      >
                        {open === v.version ? 'Hide' : 'View'}
                      </Button>
                      {mayRestore && (
                        <Button
                          size="small"
                          disabled={busy}
                          aria-label={`Restore as draft: version ${v.version}`}
                          onClick={() => void restore(v.version)}
                        >
                          Restore as draft
                        </Button>
                      )}
                    </Stack>
                  </TableCell>
                </TableRow>
                {open === v.version && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <CodeBox
                        value={v.expression}
                        readOnly
                        label={`Expression of version ${v.version}`}
                        height="auto"
                        minHeight={60}
                      />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            ))}
            {versions.length === 0 && <EmptyRow columns={4}>Not published yet.</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
    </section>
  );
}
