/** "Get certificate": a short-lived OpenSSH user certificate for a key under one of its live grants. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { isLiveGrant, SSH_LIMITS, type SshCertificate, type SshGrant, type SshKey } from '@tessera/common/ssh';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { CopyBlock } from './copy-block';
import { Section } from './section';
import { call, type useSshData } from './ssh-data';

type Ssh = ReturnType<typeof useSshData>;
const HOURS = Array.from({ length: SSH_LIMITS.certificateMaxHours }, (_, i) => i + 1);

export function CertificateSection(props: { ssh: Ssh; keys: SshKey[]; grants: SshGrant[] }) {
  const { ssh, keys, grants } = props;
  const form = useForm({ keyId: '', grantId: '', hours: '8' });
  const [certificate, setCertificate] = useState<SshCertificate | null>(null);
  const live = grants.filter((g) => String(g.keyId) === form.values.keyId && isLiveGrant(g));

  async function issue(values: { keyId: string; grantId: string; hours: string }) {
    const reply = await call<{ sshCertificates: Record<string, SshCertificate> }>('POST', '/v2/ssh/certificates', {
      keyId: Number(values.keyId),
      grantId: Number(values.grantId),
      hours: Number(values.hours),
    });
    setCertificate(Object.values(reply.sshCertificates)[0]!);
  }

  return (
    <Section
      id="ssh-get-certificate"
      title="Get certificate"
      intro="A certificate signed by the product's SSH CA lets its key in as the grant's login on every host that trusts the CA, for the hours chosen and never past the grant's expiry."
    >
      <FormContainer form={form} onValid={issue}>
        <Stack direction="row" sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <TextInput
            select
            name="keyId"
            label="Certificate key"
            what="a key"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 240 } }}
          >
            {keys.map((k) => (
              <MenuItem key={k.id} value={String(k.id)}>
                {k.name} ({k.owner})
              </MenuItem>
            ))}
          </TextInput>
          <TextInput
            select
            name="grantId"
            label="Grant"
            what="a live grant of the key"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 320 } }}
          >
            {live.map((g) => (
              <MenuItem key={g.id} value={String(g.id)}>
                {g.principal} on {ssh.data.groups[g.groupId]?.name ?? g.groupId}, until {formatDate(g.expiresAt)}
              </MenuItem>
            ))}
          </TextInput>
          <TextInput
            select
            name="hours"
            label="Valid for"
            what="a number of hours"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 140 } }}
          >
            {HOURS.map((h) => (
              <MenuItem key={h} value={String(h)}>
                {h} {h === 1 ? 'hour' : 'hours'}
              </MenuItem>
            ))}
          </TextInput>
          <Box sx={{ pt: 1 }}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Get certificate
            </Button>
          </Box>
        </Stack>
      </FormContainer>
      {certificate && (
        <Box sx={{ mt: 2 }} data-testid="ssh-certificate-result">
          <Typography sx={{ mb: 1 }}>
            Certificate {certificate.id} for {certificate.principal}, valid until {formatDate(certificate.validBefore)}.
            Save it beside the private key as its -cert.pub file, or use ssh -o CertificateFile=….
          </Typography>
          <CopyBlock
            text={certificate.certificate}
            label="the certificate"
            testId="ssh-certificate"
            download={`tessera-${certificate.id}-cert.pub`}
          />
        </Box>
      )}
    </Section>
  );
}
