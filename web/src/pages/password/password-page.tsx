/** Spec §2 Password (/password/{set|change|forgot|reset}); set and reset arrive from e-mailed links (decision 0005). */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { hasRank } from '@tessera/common/roles';
import { type PasswordAction, routeTitle } from '@tessera/common/routes';
import { Navigate, Link as RouterLink, useLocation } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { guardTarget } from '../../app/route-element';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { ForgotForm } from './forgot-form';
import { PasswordForm } from './password-form';
import { useLinkSession } from './use-link-session';

/** set and reset: the form once the link's session is open, else why not and where to get a new link. */
function FromLink({ action }: { action: 'set' | 'reset' }) {
  const link = useLinkSession();
  if (link.status === 'opening') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={24} />
        <Typography>Opening your link…</Typography>
      </Box>
    );
  }
  if (link.status === 'failed') {
    return (
      <Alert severity="error" data-testid="link-problem">
        {link.text}{' '}
        <Link component={RouterLink} to="/password/forgot">
          Request a new link
        </Link>
      </Alert>
    );
  }
  return <PasswordForm action={action} />;
}

/** change: only for someone signed in; anyone else goes where the guards send them. */
function Change() {
  const role = useStore((s) => s.self.role);
  const location = useLocation();
  if (!hasRank(role, 'user')) return <Navigate to={guardTarget(role, 'user', location)} replace />;
  return <PasswordForm action="change" />;
}

export default function PasswordPage({ route, params }: PageProps) {
  const action = params.action as PasswordAction;
  return (
    <Paper variant="outlined" sx={{ maxWidth: 460, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2, sm: 4 } }}>
      <PageHeading>{routeTitle(route, params)}</PageHeading>
      {action === 'forgot' ? (
        <ForgotForm />
      ) : action === 'change' ? (
        <Change />
      ) : (
        <FromLink key={action} action={action} />
      )}
    </Paper>
  );
}
