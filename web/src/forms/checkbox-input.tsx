/** A checkbox bound to its form by name; its value is 'true' or '' (spec §3 forms hold strings, as 'remember'). */
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel, { type FormControlLabelProps } from '@mui/material/FormControlLabel';
import { useField } from './form-context';

const ALWAYS_VALID = () => undefined;

export function CheckboxInput({
  name,
  label,
  ...rest
}: { name: string; label: string } & Omit<FormControlLabelProps, 'control' | 'label'>) {
  const form = useField(name, { label, check: ALWAYS_VALID });
  return (
    <FormControlLabel
      label={label}
      control={
        <Checkbox
          id={form.inputId(name)}
          name={name}
          checked={form.values[name] === 'true'}
          onChange={(event) => form.setValue(name, event.target.checked ? 'true' : '')}
        />
      }
      {...rest}
    />
  );
}
