/**
 * What the router shows when a page fails while rendering: the spec's 500 error page, with the error reported
 * over the socket like any uncaught client error.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorMessage, errorTitle } from '@tessera/common/errors';
import { CLIENT_ERROR_MAX_CHARS } from '@tessera/common/socket';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { errorStack } from '../lib/client-errors';
import { socket } from '../lib/socket';

export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    const stack = errorStack(error);
    console.error(stack);
    socket.send(['clientError', stack.slice(0, CLIENT_ERROR_MAX_CHARS)]);
    document.title = `Tessera - ${errorTitle(500)}`;
  }, [error]);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: 8, px: 2, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" data-testid="page-title" sx={{ mb: 2 }}>
        {errorTitle(500)}
      </Typography>
      <Typography sx={{ mb: 3 }}>{errorMessage(500)}</Typography>
      <Button variant="contained" onClick={() => window.location.assign('/')}>
        Go to the home page
      </Button>
    </Box>
  );
}
