/**
 * One GET input of the form made from the OpenAPI document: its description and example as help, the spec §5 or
 * lookup rule checked on blur first and then on every input (spec §5), the state as a select of abbreviation and
 * name. Values live in the query string, so a field here only reports changes.
 */
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { InputName } from '@tessera/common/lookups';
import { US_STATES } from '@tessera/common/states';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useState } from 'react';
import type { ParamInfo } from './openapi';
import { inputError } from './validate';

const MAX: Partial<Record<string, number>> = {
  email: MAX_LENGTH.email,
  zip: MAX_LENGTH.zip,
  // Identity ids: up to 16 digits (common/lookup-inputs.ts), past spec §5's 10 for integers.
  id: 16,
  firstName: MAX_LENGTH.name,
  lastName: MAX_LENGTH.name,
  address: MAX_LENGTH.address,
  city: MAX_LENGTH.city,
};
const INPUT_MODE: Partial<Record<string, 'email' | 'numeric' | 'tel'>> = {
  email: 'email',
  zip: 'numeric',
  id: 'numeric',
  phone: 'tel',
};

/** Validation shown after the first blur (or at once for a value that came with the link). */
export function useShownError(value: string, check: (v: string) => string | null) {
  const [touched, setTouched] = useState(value.trim() !== '');
  const error = touched ? check(value) : null;
  return { error, onBlur: () => setTouched(true) };
}

export function ParamField({
  param,
  value,
  onChange,
}: {
  param: ParamInfo;
  value: string;
  onChange: (value: string) => void;
}) {
  const name = param.name as InputName;
  const { error, onBlur } = useShownError(value, (v) => inputError(name, v));
  const help = `${param.description}${param.example ? ` Example: ${param.example}` : ''}`;
  const common = {
    id: `param-${name}`,
    label: param.required ? name : `${name} (optional)`,
    value,
    onBlur,
    error: Boolean(error),
    helperText: error ?? help,
    fullWidth: true,
    size: 'small' as const,
  };
  if (name === 'state') {
    return (
      <TextField
        {...common}
        select
        onChange={(e) => {
          onChange(e.target.value);
          onBlur();
        }}
        slotProps={{ select: { renderValue: (v) => String(v) } }}
      >
        <MenuItem value="">
          <em>None</em>
        </MenuItem>
        {US_STATES.map((s) => (
          <MenuItem key={s.abbreviation} value={s.abbreviation} dense>
            <ListItemText primary={s.abbreviation} secondary={s.name} />
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      {...common}
      onChange={(e) => onChange(e.target.value)}
      placeholder={param.example}
      slotProps={{ htmlInput: { maxLength: MAX[name], inputMode: INPUT_MODE[name], spellCheck: false } }}
    />
  );
}
