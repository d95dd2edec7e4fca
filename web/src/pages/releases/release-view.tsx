/**
 * One release (/releases/{id}): its version, status, commit, artifact (size, SHA-256) and notes rendered from
 * Markdown (sanitised on the server). A draft can be edited, published or deleted; a published one deployed.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatBytes } from '@tessera/common/constants';
import { formatDate } from '@tessera/common/dates';
import { Link as RouterLink } from 'react-router';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import { RELEASES_PATH, useRelease } from './release-api';
import { ReleaseStatusChip } from './status-chip';

export function ReleaseView({ id }: { id: number }) {
  const release = useRelease(id);
  const loaded = useFetch(`${RELEASES_PATH}/${id}`);
  if (!release) return loaded ? null : <CircularProgress aria-label="Loading the release" />;
  const draft = release.status === 'draft';
  return (
    <>
      <PageHeading>Release {release.version}</PageHeading>
      <Stack direction="row" spacing={2} sx={{ mb: 3, flexWrap: 'wrap' }} useFlexGap>
        {draft ? (
          <>
            <Button variant="contained" component={RouterLink} to={`/releases/publish/${id}`}>
              Publish
            </Button>
            <Button variant="outlined" component={RouterLink} to={`/releases/edit/${id}`}>
              Edit
            </Button>
            <Button variant="outlined" color="error" component={RouterLink} to={`/releases/delete/${id}`}>
              Delete
            </Button>
          </>
        ) : (
          <Button variant="contained" component={RouterLink} to={`/deployments/add?releaseId=${id}`}>
            Deploy
          </Button>
        )}
        <Button component={RouterLink} to="/releases">
          All Releases
        </Button>
      </Stack>
      <DetailList
        items={[
          ['Status', <ReleaseStatusChip key="s" status={release.status} />],
          ['Commit', <code key="c">{release.commit}</code>],
          ['Artifact', `${release.artifact} (${formatBytes(release.artifactSize)})`],
          ['SHA-256', <code key="h">{release.artifactSha256}</code>],
          ['Created', formatDate(release.createdAt)],
          ['Published', release.publishedAt ? formatDate(release.publishedAt) : 'Not yet'],
        ]}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        Notes
      </Typography>
      {release.notesHtml === '' ? (
        <Typography color="text.secondary">No notes.</Typography>
      ) : (
        <Box
          data-testid="release-notes"
          sx={{ maxWidth: 720, '& a': { color: 'primary.main' } }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and sanitised on the server (releases/notes.ts)
          dangerouslySetInnerHTML={{ __html: release.notesHtml }}
        />
      )}
    </>
  );
}
