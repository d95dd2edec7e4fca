/**
 * The row that ends an editor's form: its submit button and Cancel, both off while the form is busy (a submit
 * in flight). The submit may be held off for reasons of the page's own (`blocked`).
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useFormContext } from './form-context';

export function FormActions(props: { submit: string; onCancel: () => void; blocked?: boolean }) {
  const form = useFormContext();
  return (
    <Stack direction="row" spacing={2}>
      <Button type="submit" variant="contained" disabled={form.busy || props.blocked === true}>
        {props.submit}
      </Button>
      <Button onClick={props.onCancel} disabled={form.busy}>
        Cancel
      </Button>
    </Stack>
  );
}
