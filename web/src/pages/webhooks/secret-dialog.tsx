/**
 * An endpoint's signing secret, shown once after a creation or a rotation (issue 33): the secret with a copy button
 * and the warning that it will not be shown again; after a rotation, until when the previous secret still signs
 * deliveries (each carries a signature by both meanwhile), so a receiver can be changed over without losing any.
 * Its own dialog, like the keys page's, so that the secret lives only in the state of the page that asked for it.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { WEBHOOK_HEADERS } from '@tessera/common/webhooks';
import { CopyBlock } from '../ssh/copy-block';
import type { NewSecret } from './webhook-api';

/** What a rotation means for deliveries already on their way and for the receiver. */
export function overlapText(previousSecretValidUntil: string | null): string {
  return previousSecretValidUntil
    ? `The previous secret keeps working until ${formatDate(previousSecretValidUntil)}: until then every delivery's ${WEBHOOK_HEADERS.signature} header carries a signature by each secret, so update your receiver before that time.`
    : 'The previous secret no longer signs deliveries: update your receiver now.';
}

export function SecretDialog({ shown, onClose }: { shown: NewSecret | null; onClose: () => void }) {
  return (
    <Dialog open={shown !== null} onClose={onClose} aria-labelledby="webhook-secret-title" maxWidth="md" fullWidth>
      {shown && (
        <>
          <DialogTitle id="webhook-secret-title">
            {shown.rotated ? 'New signing secret' : 'Signing secret of the new endpoint'}
          </DialogTitle>
          <DialogContent>
            <Alert severity="warning" sx={{ mb: 2 }}>
              Copy this secret now: it will not be shown again. Your receiver needs it to check each delivery's
              signature.
            </Alert>
            <Typography variant="subtitle2" component="p" gutterBottom>
              Signing secret for {shown.endpoint.url}
            </Typography>
            <CopyBlock text={shown.secret} label="the signing secret" testId="webhook-secret" />
            {shown.rotated && (
              <Typography sx={{ mt: 2 }} data-testid="rotation-overlap">
                {overlapText(shown.endpoint.previousSecretValidUntil)}
              </Typography>
            )}
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              I have copied it
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
