/**
 * A failed load in place of what it would have shown (issue 32 item 6): the error and a Retry, never an empty
 * list or a blank chart that reads as "there is nothing".
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';

export interface LoadErrorProps {
  /** What could not be loaded, for the title: "The templates could not be loaded." */
  what: string;
  error: string;
  /** True while a retry is under way. */
  retrying?: boolean;
  onRetry(): void;
  sx?: SxProps<Theme>;
}

export function LoadError({ what, error, retrying = false, onRetry, sx }: LoadErrorProps) {
  return (
    <Alert
      severity="error"
      data-testid="load-error"
      sx={sx}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </Button>
      }
    >
      <AlertTitle>{`${what[0]?.toUpperCase() ?? ''}${what.slice(1)} could not be loaded.`}</AlertTitle>
      {error}
    </Alert>
  );
}

/** Whether a load's error is to be shown: it failed, or a retry of a failure is under way. */
export function showsLoadError(state: { status: string; error: string | null }): state is {
  status: string;
  error: string;
} {
  return state.error !== null && state.status !== 'loaded';
}
