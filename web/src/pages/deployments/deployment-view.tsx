/**
 * One deployment (/deployments/{id}): what is deployed where (spec §3 `deploying`), its status, and each host's task
 * moving live with its log streaming. Cancel while it runs; retry the failed and cancelled hosts, roll back to the
 * previous release, or delete it once it has finished.
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { navigate } from '../../lib/navigator';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import {
  cancelDeployment,
  createDeployment,
  DEPLOYMENTS_PATH,
  RELEASES_PATH,
  retryDeployment,
  useDeployment,
  usePublishedReleases,
  useTasks,
} from './deployment-api';
import { StatusChip } from './status-chip';
import { TaskCard } from './task-card';

export function DeploymentView({ id }: { id: number }) {
  const deployment = useDeployment(id);
  const tasks = useTasks(id);
  const releases = usePublishedReleases();
  const loaded = useFetch(`${DEPLOYMENTS_PATH}/${id}`);
  useFetch(RELEASES_PATH);
  const [busy, setBusy] = useState(false);
  if (!deployment) return loaded ? null : <CircularProgress aria-label="Loading the deployment" />;

  const finished = deployment.finishedAt !== null;
  const retryable = finished && tasks.some((t) => t.status === 'failed' || t.status === 'cancelled');
  // The release published before this one: deploying it is the roll back.
  const previous = releases.find((r) => r.id < deployment.releaseId);
  const act = (action: () => Promise<unknown>) => () => {
    setBusy(true);
    action()
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  const rollBack = async () => {
    if (!previous) return;
    const created = await createDeployment({
      releaseId: previous.id,
      environment: deployment.deploying.environment,
      hosts: deployment.deploying.hosts,
    });
    if (created) navigate(`/deployments/${created.id}`);
  };

  return (
    <>
      <PageHeading>Deployment #{deployment.id}</PageHeading>
      <Stack direction="row" spacing={2} sx={{ mb: 3, flexWrap: 'wrap' }} useFlexGap>
        {!finished && (
          <Button variant="contained" color="warning" disabled={busy} onClick={act(() => cancelDeployment(id))}>
            Cancel Deployment
          </Button>
        )}
        {retryable && (
          <Button variant="contained" disabled={busy} onClick={act(() => retryDeployment(id))}>
            Retry Failed Hosts
          </Button>
        )}
        {finished && previous && (
          <Button variant="outlined" disabled={busy} onClick={act(rollBack)}>
            Roll Back to {previous.version}
          </Button>
        )}
        {finished && (
          <Button variant="outlined" color="error" component={RouterLink} to={`/deployments/delete/${id}`}>
            Delete
          </Button>
        )}
        <Button component={RouterLink} to="/deployments">
          All Deployments
        </Button>
      </Stack>
      <DetailList
        items={[
          ['Status', <StatusChip key="s" status={deployment.status} />],
          [
            'Release',
            <Link key="r" component={RouterLink} to={`/releases/${deployment.releaseId}`}>
              {deployment.version}
            </Link>,
          ],
          ['Environment', deployment.deploying.environment],
          ['Hosts', String(deployment.deploying.hosts.length)],
          ['Started', formatDate(deployment.createdAt)],
          ['Finished', finished ? formatDate(deployment.finishedAt) : 'Not yet'],
        ]}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        Tasks
      </Typography>
      <Stack spacing={2}>
        {tasks.map((task) => (
          <TaskCard key={task.key} task={task} />
        ))}
      </Stack>
    </>
  );
}
