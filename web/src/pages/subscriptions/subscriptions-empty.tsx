/**
 * What the page shows in place of the list while the organization holds no subscription: what one is, and where its
 * events go (the organization's webhook endpoints taking identity.changed), with the way to them for those who may
 * set them up (administrators and above).
 */
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

const code = { fontFamily: 'monospace' } as const;

export function SubscriptionsEmpty({ mayManageWebhooks }: { mayManageWebhooks: boolean }) {
  return (
    <Paper variant="outlined" data-testid="subscriptions-empty" sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        No subscriptions yet
      </Typography>
      <Typography sx={{ mb: 1 }}>
        A subscription follows one person. Each time their record changes, Tessera sends an{' '}
        <Box component="span" sx={code}>
          identity.changed
        </Box>{' '}
        event, with the record as the subscription's template shapes it, to every enabled webhook endpoint of your
        organization that takes{' '}
        <Box component="span" sx={code}>
          identity.changed
        </Box>
        . Subscribe by e-mail, phone or hash to follow whoever holds it, even after it moves to someone else.
      </Typography>
      <Typography color="text.secondary">
        {mayManageWebhooks ? (
          <>
            Set up the endpoints that receive the events on the{' '}
            <Link component={RouterLink} to="/webhooks">
              Webhooks page
            </Link>
            .
          </>
        ) : (
          "Your organization's administrators set up the webhook endpoints that receive the events."
        )}
      </Typography>
    </Paper>
  );
}
