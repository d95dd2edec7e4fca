/** The CA's public key for TrustedUserCAKeys, and the sshd_config lines and script a host of a group needs. */
import Typography from '@mui/material/Typography';
import type { SshCa } from '@tessera/common/ssh';
import { CopyBlock } from './copy-block';
import { Section } from './section';

const SCRIPT = '/usr/local/bin/tessera-authorized-keys';

export function sshdConfig(): string {
  return [
    'TrustedUserCAKeys /etc/ssh/tessera_user_ca.pub',
    `AuthorizedKeysCommand ${SCRIPT} %u`,
    'AuthorizedKeysCommandUser nobody',
  ].join('\n');
}

export function commandScript(origin: string): string {
  return [
    '#!/bin/sh',
    '# Owner root, mode 0755; replace GROUP with the host group name.',
    `exec curl -fsS --max-time 10 -H "Authorization: Bearer $(cat /etc/ssh/tessera-host-token)" \\`,
    `  "${origin}/v2/ssh/authorized_keys?group=GROUP&user=$1"`,
  ].join('\n');
}

export function CaSection({ ca }: { ca: SshCa | null }) {
  return (
    <Section
      id="ssh-ca"
      title="Host setup"
      intro="Hosts trust certificates signed by the CA below, and ask for their group's granted keys through AuthorizedKeysCommand."
    >
      {ca && (
        <>
          <Typography variant="subtitle2" component="h3" gutterBottom sx={{ overflowWrap: 'anywhere' }}>
            CA public key ({ca.fingerprint})
          </Typography>
          <CopyBlock text={ca.publicKey} label="the CA public key" testId="ssh-ca-key" download="tessera_user_ca.pub" />
        </>
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }} gutterBottom>
        sshd_config
      </Typography>
      <CopyBlock text={sshdConfig()} label="the sshd_config lines" testId="ssh-sshd-config" />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }} gutterBottom>
        {SCRIPT}
      </Typography>
      <CopyBlock
        text={commandScript(window.location.origin)}
        label="the AuthorizedKeysCommand script"
        testId="ssh-script"
      />
    </Section>
  );
}
