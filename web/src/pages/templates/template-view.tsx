/**
 * /templates/{id}: one template, read-only: its settings, who may edit it, the expression lookups use (or the draft
 * before a first publish) and its version history. Editors also get Edit, Publish and Delete.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PublishIcon from '@mui/icons-material/Publish';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { mayEditTemplate } from '@tessera/common/templates';
import { useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import { CodeBox } from './code-box';
import { TEMPLATES_PATH } from './template-api';
import { draftLabel, editorsLabel, ownerLabel, publishedLabel, useNames, useTemplate } from './template-logic';
import { VersionHistory } from './version-history';

export function TemplateGone() {
  return (
    <>
      <PageHeading>Template</PageHeading>
      <Alert severity="info" data-testid="template-gone">
        This template has been deleted.{' '}
        <Link component={RouterLink} to="/templates">
          Templates
        </Link>
      </Alert>
    </>
  );
}

export function TemplateView({ id }: { id: number }) {
  const self = useStore((s) => s.self);
  const template = useTemplate(id);
  useFetch(`${TEMPLATES_PATH}/${id}`);
  useFetch(RESOURCE_PATHS.users);
  useFetch(RESOURCE_PATHS.organizations);
  const { users, organizations } = useNames();
  const seen = useRef(false);
  if (template) seen.current = true;
  if (!template && seen.current) return <TemplateGone />;
  if (!template) return <CircularProgress aria-label="Loading the template" />;

  const editable = mayEditTemplate(self, template);
  const shown = template.publishedVersion === null ? (template.draft?.expression ?? '') : template.expression;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{template.name}</PageHeading>
        <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
          {editable && (
            <>
              <Button component={RouterLink} to={`/templates/edit/${id}`} startIcon={<EditIcon />}>
                Edit
              </Button>
              <Button component={RouterLink} to={`/templates/publish/${id}`} startIcon={<PublishIcon />}>
                Publish
              </Button>
            </>
          )}
          <Button component={RouterLink} to={`/templates/add/${id}`} startIcon={<ContentCopyIcon />}>
            Copy
          </Button>
          {editable && (
            <Button color="error" component={RouterLink} to={`/templates/delete/${id}`} startIcon={<DeleteIcon />}>
              Delete
            </Button>
          )}
        </Stack>
      </Box>
      {!editable && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="read-only">
          You may read this template but not change it.
        </Alert>
      )}
      <DetailList
        items={[
          ['Template ID', String(template.id)],
          ['Description', template.description || 'None'],
          ['Owner', ownerLabel(template, organizations)],
          ['Published', publishedLabel(template)],
          ['Draft', template.draft ? `${draftLabel(template)}, saved ${formatDate(template.draft.updatedAt)}` : 'None'],
          ['Updated', formatDate(template.updatedAt)],
          ['Who may edit', editorsLabel(template, users, organizations)],
        ]}
      />
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        {template.publishedVersion === null ? 'Draft Expression' : `Expression (Version ${template.publishedVersion})`}
      </Typography>
      <CodeBox value={shown} readOnly label="Expression" height="auto" minHeight={60} />
      <VersionHistory template={template} mayRestore={editable} />
    </>
  );
}
