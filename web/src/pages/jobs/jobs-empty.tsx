/**
 * What the page shows in place of the list while there is no job: what a bulk job is and how to make one, with the
 * way to the API reference, which documents the Bulk jobs calls.
 */
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

const code = { fontFamily: 'monospace' } as const;

export function JobsEmpty() {
  return (
    <Paper variant="outlined" data-testid="jobs-empty" sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        No bulk jobs yet
      </Typography>
      <Typography sx={{ mb: 1 }}>
        A bulk job looks up every row of a CSV file in the background, however long it is: each row is answered as{' '}
        <Box component="span" sx={code}>
          PUT /v2/identities/&#123;endpoint&#125;
        </Box>{' '}
        answers it, with its own columns passed through. You can close the page while it runs, follow its progress here,
        cancel it, and download its result until it expires (a week after it ends, by default). Rows are billed as they
        are answered.
      </Typography>
      <Typography color="text.secondary">
        Start one with the form above, or from your own code with an API key: see Bulk jobs in the{' '}
        <Link component={RouterLink} to="/api">
          API reference
        </Link>
        .
      </Typography>
    </Paper>
  );
}
