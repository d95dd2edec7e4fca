/**
 * Deploy a published release (/deployments/add, `?releaseId=` preselects one): choose the environment and which of
 * its hosts (all by default). Rolling back is deploying the previous release the same way.
 */
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import type { Environment } from '@tessera/common/deployments';
import { useEffect, useRef } from 'react';
import { FormContainer, TextInput, useForm, useFormContext } from '../../forms';
import { navigate } from '../../lib/navigator';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import {
  createDeployment,
  ENVIRONMENTS_PATH,
  RELEASES_PATH,
  useEnvironments,
  usePublishedReleases,
} from './deployment-api';

type Values = { releaseId: string; environment: string; hosts: string };

const split = (hosts: string) => hosts.split('\n').filter((h) => h !== '');

function HostsInput({ environment }: { environment: Environment | undefined }) {
  const form = useFormContext();
  const chosen = split(form.values.hosts ?? '');
  const error = form.errors.hosts;
  if (!environment) return null;
  const set = (host: string, on: boolean) => {
    const next = on ? [...chosen, host] : chosen.filter((h) => h !== host);
    form.setValue('hosts', environment.hosts.filter((h) => next.includes(h)).join('\n'));
  };
  return (
    <FormControl component="fieldset" variant="standard" error={Boolean(error)}>
      <FormLabel component="legend">Hosts</FormLabel>
      <FormGroup>
        {environment.hosts.map((host) => (
          <FormControlLabel
            key={host}
            label={host}
            control={<Checkbox checked={chosen.includes(host)} onChange={(e) => set(host, e.target.checked)} />}
          />
        ))}
      </FormGroup>
      <FormHelperText>
        {error ??
          `${environment.parallelism} at a time; a failure stops the hosts after it. At most ${environment.timeoutSeconds} s a host.`}
      </FormHelperText>
    </FormControl>
  );
}

export function DeploymentForm() {
  const releases = usePublishedReleases();
  const environments = useEnvironments();
  const preset = new URLSearchParams(window.location.search).get('releaseId') ?? '';
  const form = useForm<Values>({ releaseId: preset, environment: '', hosts: '' });
  useFetch(RELEASES_PATH);
  const envLoaded = useFetch(ENVIRONMENTS_PATH);
  const environment = environments.find((e) => e.name === form.values.environment);
  const primed = useRef(false);

  // One environment: choose it; a chosen environment starts with all its hosts.
  useEffect(() => {
    if (!envLoaded || primed.current || environments.length !== 1) return;
    primed.current = true;
    form.setValue('environment', environments[0]!.name);
  }, [envLoaded, environments, form.setValue]);
  const chosenEnv = form.values.environment;
  useEffect(() => {
    const env = environments.find((e) => e.name === chosenEnv);
    if (env) form.setValue('hosts', env.hosts.join('\n'));
  }, [chosenEnv, environments, form.setValue]);

  async function save(values: Values) {
    const created = await createDeployment({
      releaseId: Number(values.releaseId),
      environment: values.environment,
      hosts: split(values.hosts),
    });
    if (created) navigate(`/deployments/${created.id}`);
  }

  return (
    <>
      <PageHeading>New Deployment</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 720 }}>
        <Stack spacing={2}>
          <TextInput
            select
            name="releaseId"
            label="Release"
            what="a published release"
            helperText="Published releases only."
          >
            {releases.map((r) => (
              <MenuItem key={r.id} value={String(r.id)}>
                {r.version}
              </MenuItem>
            ))}
          </TextInput>
          <TextInput select name="environment" label="Environment" what="an environment">
            {environments.map((e) => (
              <MenuItem key={e.name} value={e.name}>
                {e.name}
                {e.serves ? ' (serves this console)' : ''}
              </MenuItem>
            ))}
          </TextInput>
          <HostsInput environment={environment} />
          <Stack direction="row" spacing={2}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Deploy
            </Button>
            <Button onClick={() => navigate('/deployments')}>Cancel</Button>
          </Stack>
        </Stack>
      </FormContainer>
    </>
  );
}
