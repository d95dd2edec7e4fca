/**
 * A form-kit field holding a day (YYYY-MM-DD) picked with MUI's date picker, as the usage page picks its range:
 * the spec §9 year span, checked on blur first and then on every change like the kit's text fields (spec §5).
 */
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { MESSAGES } from '@tessera/common/validation';
import dayjs from 'dayjs';
import type { FieldCheck } from '../../forms';
import { useField } from '../../forms/form-context';

const YEAR = new Date().getFullYear();
/** What a picker holds while its text is not a whole date yet: fails the date rule. */
const UNFINISHED = 'unfinished';

export function DateInput(props: {
  name: string;
  label: string;
  what: string;
  check: FieldCheck;
  helperText?: string;
  dependsOn?: readonly string[];
}) {
  const { name, label, what, check, helperText, dependsOn } = props;
  const form = useField(name, {
    label,
    dependsOn,
    check: (value, values) => (value === '' ? MESSAGES.required(what) : check(value, values)),
  });
  const value = form.values[name] ?? '';
  const error = form.errors[name];
  const parsed = value === '' || value === UNFINISHED ? null : dayjs(value);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DatePicker
        label={label}
        format="YYYY-MM-DD"
        value={parsed}
        onChange={(d) => form.setValue(name, d === null ? '' : d.isValid() ? d.format('YYYY-MM-DD') : UNFINISHED)}
        minDate={dayjs(new Date(YEAR - 100, 0, 1))}
        maxDate={dayjs(new Date(YEAR + 52, 11, 31))}
        onClose={() => form.blur(name)}
        slotProps={{
          textField: {
            id: form.inputId(name),
            name,
            error: error !== undefined,
            helperText: error ?? helperText ?? ' ',
            onBlur: () => form.blur(name),
            fullWidth: false,
          },
        }}
      />
    </LocalizationProvider>
  );
}
