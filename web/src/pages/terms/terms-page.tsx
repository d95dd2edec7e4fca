/**
 * Spec §2 Terms: 'Welcome!', the agreement as HTML, and 'I accept this Agreement'; then refresh and go to /.
 * A signer may also decline, which signs them out without accepting (the spec has no decline: decision 0060); a
 * user who has accepted reads when, with a way on to the console (issue 32 item 3).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Alert } from '@tessera/common/alerts';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { formatDate } from '@tessera/common/dates';
import { hasRank } from '@tessera/common/roles';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { logout, refreshUser } from '../../lib/session';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { AgreementVersions } from './agreement-versions';

export const DECLINED_ALERT: Alert = {
  type: 'info',
  title: 'Agreement Declined',
  text: 'You have been signed out. Sign in again when you want to accept the agreement.',
};

/** Declining is signing out without accepting; the notice is carried to the sign-in page. */
function decline(): void {
  useStore.getState().carryAlert(DECLINED_ALERT);
  void logout();
}

/** What a user past the agreement reads: when they accepted it, or (impersonating) that only they can. */
function Accepted({ acceptedAt, name }: { acceptedAt: string | null | undefined; name: string }) {
  const impersonating = useStore((s) => s.self.impersonator !== undefined);
  let text = 'You have accepted this agreement.';
  if (acceptedAt) text = `You accepted this agreement on ${formatDate(acceptedAt)}.`;
  else if (acceptedAt === null && impersonating) text = `${name} has not accepted this agreement; only they can.`;
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }} data-testid="terms-accepted">
      <Typography>{text}</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        Continue to the console
      </Button>
    </Stack>
  );
}

export default function TermsPage() {
  const nda = useStore((s) => s.areas.nda as string | undefined);
  const ndaId = useStore((s) => s.areas.ndaId as number | undefined);
  const acceptedAt = useStore((s) => s.areas.ndaAcceptedAt as string | null | undefined);
  const role = useStore((s) => s.self.role);
  const name = useStore((s) => s.self.name || s.self.email);
  const [busy, setBusy] = useState(false);
  const signer = !hasRank(role, 'user');

  useFetch('/v2/terms');
  // The role in the session cookie was set at sign-in; whether the newest version is accepted is the server's to
  // say (decision 0006). A version published since makes this user a signer, and the accept button must show.
  useFetch(AUTH_PATHS.self);

  async function accept() {
    if (ndaId === undefined) return;
    setBusy(true);
    try {
      await api.post('/v2/terms/accept', { ndaId });
      refreshUser();
      navigate('/');
    } catch {
      setBusy(false); // the client has shown why; the page stays for another try
    }
  }

  return (
    <Box sx={{ maxWidth: 860 }}>
      <PageHeading>Terms of Use</PageHeading>
      <Typography variant="h6" component="p">
        Welcome!
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {signer
          ? 'Please read the agreement below. You can use Tessera once you have accepted it. If you decline, you are signed out.'
          : 'This is the agreement for using Tessera.'}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3, '& h2': { mt: 0 } }}>
        {nda === undefined ? (
          <CircularProgress aria-label="Loading the agreement" />
        ) : (
          // The agreement is HTML written by our operators, never by users.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted operator content (spec §2 Terms)
          <Box data-testid="agreement" dangerouslySetInnerHTML={{ __html: nda }} />
        )}
      </Paper>
      {signer ? (
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" size="large" disabled={busy || ndaId === undefined} onClick={() => void accept()}>
            I accept this Agreement
          </Button>
          <Button variant="outlined" size="large" disabled={busy} onClick={decline}>
            Decline
          </Button>
        </Stack>
      ) : (
        <Accepted acceptedAt={acceptedAt} name={name} />
      )}
      {hasRank(role, 'super') && <AgreementVersions current={nda} />}
    </Box>
  );
}
