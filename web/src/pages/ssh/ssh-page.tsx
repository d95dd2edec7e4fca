/**
 * SSH (issue 20 item 3, root): staff's public keys, host groups and their tokens, grants of a key to a group as
 * a login until an expiry, short-lived certificates from the product's CA, and what a host needs to trust them.
 */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useMemo } from 'react';
import { LoadError, showsLoadError } from '../load-error';
import { PageHeading } from '../page-heading';
import { CaSection } from './ca-section';
import { CertificateSection } from './certificate-section';
import { GrantsSection } from './grants-section';
import { GroupsSection } from './groups-section';
import { KeysSection } from './keys-section';
import { sortedBy, useSshData } from './ssh-data';

export default function SshPage() {
  const ssh = useSshData();
  const { data } = ssh;
  const keys = useMemo(() => sortedBy(data.keys, (a, b) => b.id - a.id), [data.keys]);
  const groups = useMemo(() => sortedBy(data.groups, (a, b) => a.name.localeCompare(b.name)), [data.groups]);
  const grants = useMemo(() => sortedBy(data.grants, (a, b) => b.id - a.id), [data.grants]);

  return (
    <Box sx={{ maxWidth: 1200 }}>
      <PageHeading>SSH</PageHeading>
      {showsLoadError(ssh.loads) ? (
        <LoadError
          what="SSH access"
          error={ssh.loads.error}
          retrying={ssh.loads.status === 'loading'}
          onRetry={ssh.loads.retry}
        />
      ) : !data.loaded ? (
        <CircularProgress aria-label="Loading SSH access" />
      ) : (
        <>
          <KeysSection ssh={ssh} keys={keys} />
          <GroupsSection ssh={ssh} groups={groups} />
          <GrantsSection ssh={ssh} grants={grants} keys={keys} groups={groups} />
          <CertificateSection ssh={ssh} keys={keys} grants={grants} />
          <CaSection ca={data.ca} />
        </>
      )}
    </Box>
  );
}
