/** Spec §2 error screen: the code comes from the route (default 404); the message from the route or §8. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorMessage, errorTitle } from '@tessera/common/errors';
import { Link } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { PageHeading } from '../page-heading';

export function errorCode(value: string | undefined): number {
  const code = Number(value ?? 404);
  return Number.isInteger(code) && code >= 100 && code <= 599 ? code : 404;
}

export default function ErrorPage({ params }: PageProps) {
  const code = errorCode(params.code);
  const message = params.message?.trim() || errorMessage(code);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, sm: 8 }, textAlign: 'center' }}>
      <Typography variant="h2" component="p" color="text.secondary" aria-hidden sx={{ fontWeight: 300 }}>
        {code}
      </Typography>
      <PageHeading>{errorTitle(code)}</PageHeading>
      <Typography sx={{ mb: 3 }}>{message}</Typography>
      <Button variant="contained" component={Link} to="/">
        Go to the home page
      </Button>
    </Box>
  );
}
