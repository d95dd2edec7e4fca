/**
 * A save refused with 412 (If-Match named a version the item has moved on from, issue 31): the server's message in
 * place, and a Reload that puts the item as it is now in the form. Nothing was saved, so nothing is overwritten.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

export function StaleAlert({ message, onReload, testId }: { message: string; onReload: () => void; testId: string }) {
  return (
    <Alert
      severity="warning"
      data-testid={testId}
      action={
        <Button color="inherit" size="small" onClick={onReload}>
          Reload
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
