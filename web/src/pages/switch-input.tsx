/**
 * An on/off switch bound to its form by name, holding 'true' or '' as the kit's CheckboxInput does. It has no
 * check of its own, so it reads and writes the form without registering.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useFormContext } from '../forms';

export function SwitchInput({ name, label }: { name: string; label: string }) {
  const form = useFormContext();
  return (
    <FormControlLabel
      label={label}
      control={
        <Switch
          id={form.inputId(name)}
          name={name}
          checked={form.values[name] === 'true'}
          onChange={(event) => form.setValue(name, event.target.checked ? 'true' : '')}
        />
      }
    />
  );
}

export const fromBoolean = (value: boolean) => (value ? 'true' : '');
