/**
 * What became of a form's submit, under the form: the server's refusal in a dismissable error alert (its title,
 * then the server's message), and a status line that tells screen readers what was made. The status line is always
 * in the page, empty until something is made, so its announcement is not lost to a late mount.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Typography from '@mui/material/Typography';

export interface FormFailure {
  title: string;
  text: string;
}

export function FormOutcome({
  failure,
  onDismiss,
  done,
  testId,
  gap = 2,
}: {
  failure: FormFailure | null;
  onDismiss: () => void;
  /** What was made, or '' before anything is. */
  done: string;
  /** The alert is `${testId}-error` (its message `${testId}-error-text`), the status line `${testId}-done`. */
  testId: string;
  /** The space above the alert and the status line, in theme units. */
  gap?: number;
}) {
  return (
    <>
      {failure && (
        <Alert severity="error" data-testid={`${testId}-error`} sx={{ mt: gap }} onClose={onDismiss}>
          <AlertTitle>{failure.title}</AlertTitle>
          <span data-testid={`${testId}-error-text`}>{failure.text}</span>
        </Alert>
      )}
      <Typography
        role="status"
        data-testid={`${testId}-done`}
        color="text.secondary"
        sx={{ mt: done ? gap : 0, overflowWrap: 'anywhere' }}
      >
        {done}
      </Typography>
    </>
  );
}
