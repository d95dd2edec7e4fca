/** Spec §5: 'Validation failed.' with 'Please fix the error(s) below, and try again.', and the errors listed. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { VALIDATION_FAILED_ALERT } from '@tessera/common/alerts';
import { useFormContext } from './form-context';

export function ValidationBanner() {
  const form = useFormContext();
  const failing = Object.entries(form.errors).filter((e): e is [string, string] => e[1] !== undefined);
  if (!form.failed || failing.length === 0) return null;
  return (
    <Alert severity="error" data-testid="validation-banner" sx={{ mb: 2 }}>
      <AlertTitle>{VALIDATION_FAILED_ALERT.title}</AlertTitle>
      {VALIDATION_FAILED_ALERT.text}
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {failing.map(([name, message]) => (
          <li key={name}>
            <Link
              href={`#${form.inputId(name)}`}
              color="inherit"
              onClick={(event) => {
                event.preventDefault();
                document.getElementById(form.inputId(name))?.focus();
              }}
            >
              {form.labelOf(name)}
            </Link>
            : {message}
          </li>
        ))}
      </Box>
    </Alert>
  );
}
