/**
 * Spec §2 error screen: the code comes from the route (default 404). A code the spec names has its title and
 * message; any other number is shown as given with 'Error' and the generic message, and a code that is not a
 * number shows no code at all. A message in the route replaces the §8 one.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorMessage, errorTitle, routeErrorCode } from '@tessera/common/errors';
import { Link } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { PageHeading } from '../page-heading';

export default function ErrorPage({ params }: PageProps) {
  const code = routeErrorCode(params.code);
  const message = params.message?.trim() || errorMessage(code);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, sm: 8 }, textAlign: 'center' }}>
      {code !== null && (
        <Typography
          variant="h2"
          component="p"
          color="text.secondary"
          aria-hidden
          data-testid="error-code"
          sx={{ fontWeight: 300, overflowWrap: 'anywhere' }}
        >
          {params.code ?? code}
        </Typography>
      )}
      <PageHeading>{errorTitle(code)}</PageHeading>
      <Typography sx={{ mb: 3 }}>{message}</Typography>
      <Button variant="contained" component={Link} to="/">
        Go to the home page
      </Button>
    </Box>
  );
}
