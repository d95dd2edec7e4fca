/** Spec §2-3 alert stack: closable alerts, one per title. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import { useStore } from '../../lib/store';

export function AlertStack() {
  const alerts = useStore((s) => s.alerts);
  const closeAlert = useStore((s) => s.closeAlert);
  return (
    <Stack data-testid="alert-stack" spacing={1} sx={{ mb: alerts.length > 0 ? 2 : 0 }} aria-live="polite">
      {alerts.map((alert) => (
        <Alert key={alert.title} severity={alert.type} onClose={() => closeAlert(alert.title)}>
          <AlertTitle>{alert.title}</AlertTitle>
          {alert.html ? (
            // Trusted HTML from our own code only (see common/alerts.ts).
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own markup, never user input
            <span dangerouslySetInnerHTML={{ __html: alert.html }} />
          ) : (
            alert.text
          )}
        </Alert>
      ))}
    </Stack>
  );
}
