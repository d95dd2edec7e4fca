/** Spec §2 Terms: 'Welcome!', the agreement as HTML, and 'I accept this Agreement'; then refresh and go to /. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { hasRank } from '@tessera/common/roles';
import { useState } from 'react';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { AgreementVersions } from './agreement-versions';

export default function TermsPage() {
  const nda = useStore((s) => s.areas.nda as string | undefined);
  const ndaId = useStore((s) => s.areas.ndaId as number | undefined);
  const role = useStore((s) => s.self.role);
  const [busy, setBusy] = useState(false);

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
        Please read the agreement below. You can use Tessera once you have accepted it.
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
      {hasRank(role, 'user') ? (
        <Typography color="text.secondary">You have accepted this agreement.</Typography>
      ) : (
        <Button variant="contained" size="large" disabled={busy || ndaId === undefined} onClick={() => void accept()}>
          I accept this Agreement
        </Button>
      )}
      {hasRank(role, 'super') && <AgreementVersions current={nda} />}
    </Box>
  );
}
