/**
 * /templates/publish/{id}: what publishing would change (a line diff of the version lookups use now and the draft),
 * then Publish, which makes the draft the next immutable version; below, the version history with restore.
 */
import PublishIcon from '@mui/icons-material/Publish';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { mayEditTemplate } from '@tessera/common/templates';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { publishTemplate, TEMPLATES_PATH } from './template-api';
import { type DiffRow, diffRows, useTemplate } from './template-logic';
import { TemplateGone } from './template-view';
import { VersionHistory } from './version-history';

const MARK: Record<DiffRow['kind'], string> = { added: '+', removed: '-', same: ' ' };
const SPOKEN: Record<DiffRow['kind'], string> = { added: 'Added', removed: 'Removed', same: 'Unchanged' };

export function DiffView({ rows }: { rows: DiffRow[] }) {
  return (
    <Box
      role="table"
      aria-label="Changes from the published version to the draft"
      tabIndex={0}
      data-testid="template-diff"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'auto',
        maxHeight: 480,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 13,
      }}
    >
      {rows.map((row, i) => (
        <Box
          // Rows have no identity of their own beyond their place in the diff.
          // biome-ignore lint/suspicious/noArrayIndexKey: the diff is rebuilt whole on every change
          key={i}
          role="row"
          data-kind={row.kind}
          sx={(t) => ({
            display: 'grid',
            gridTemplateColumns: '3.5em 3.5em 1.5em 1fr',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            color: 'text.primary',
            bgcolor:
              row.kind === 'added'
                ? t.palette.mode === 'dark'
                  ? '#1b3a1e'
                  : '#e6f4ea'
                : row.kind === 'removed'
                  ? t.palette.mode === 'dark'
                    ? '#4a1c1c'
                    : '#fce8e6'
                  : 'transparent',
          })}
        >
          <Box role="cell" sx={{ color: 'text.secondary', textAlign: 'right', pr: 1 }}>
            {row.oldLine ?? ''}
          </Box>
          <Box role="cell" sx={{ color: 'text.secondary', textAlign: 'right', pr: 1 }}>
            {row.newLine ?? ''}
          </Box>
          <Box role="cell" aria-label={SPOKEN[row.kind]}>
            {MARK[row.kind]}
          </Box>
          <Box role="cell">{row.text}</Box>
        </Box>
      ))}
    </Box>
  );
}

export function TemplatePublish({ id }: { id: number }) {
  const self = useStore((s) => s.self);
  const template = useTemplate(id);
  useFetch(`${TEMPLATES_PATH}/${id}`);
  const [busy, setBusy] = useState(false);
  const seen = useRef(false);
  if (template) seen.current = true;
  const editable = !template || mayEditTemplate(self, template);

  useEffect(() => {
    if (!editable) navigate('/error/403', { replace: true });
  }, [editable]);

  const rows = useMemo(
    () => (template?.draft ? diffRows(template.expression, template.draft.expression) : []),
    [template?.draft, template?.expression],
  );

  if (!template && seen.current) return <TemplateGone />;
  if (!template) return <CircularProgress aria-label="Loading the template" />;
  if (!editable) return null;

  async function publish() {
    if (!template) return;
    setBusy(true);
    try {
      const done = await publishTemplate(id);
      useStore.getState().carryAlert({
        type: 'success',
        title: 'Template Published',
        text: `Version ${done.publishedVersion} of ${done.name} is what lookups with template=${id} now return.`,
      });
      navigate(`/templates/${id}`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // alerted by the client
    } finally {
      setBusy(false);
    }
  }

  const draft = template.draft;
  const unchanged = draft !== null && draft.expression === template.expression;
  return (
    <>
      <PageHeading>Publish {template.name}</PageHeading>
      {draft ? (
        <Stack spacing={2}>
          <Typography>
            {template.publishedVersion === null
              ? `The draft becomes version ${draft.version}, the first that lookups can use.`
              : `Changes from version ${template.publishedVersion} (in use) to the draft, which becomes version ${draft.version}.`}
          </Typography>
          {unchanged ? (
            <Alert severity="info">The draft is the same as the published version.</Alert>
          ) : (
            <DiffView rows={rows} />
          )}
          <Stack direction="row" spacing={2}>
            <Button variant="contained" startIcon={<PublishIcon />} disabled={busy} onClick={() => void publish()}>
              Publish Version {draft.version}
            </Button>
            <Button component={RouterLink} to={`/templates/edit/${id}`}>
              Back to the Editor
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Alert severity="info" data-testid="no-draft">
          There is no draft to publish.{' '}
          <Link component={RouterLink} to={`/templates/edit/${id}`}>
            Edit the template
          </Link>{' '}
          to start one, or restore a version below as the draft.
        </Alert>
      )}
      <VersionHistory template={template} mayRestore />
    </>
  );
}
