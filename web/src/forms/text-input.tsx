/**
 * An outlined MUI text field bound to its form by name: checked first when left, then on every input
 * (spec §5), with its error in the helper text. Every other TextField prop passes through (select, rows, …).
 */
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { checkText, type FieldCheck, maxLengthOf, RULES, type RuleName, whatFromLabel } from './field-rules';
import { useField } from './form-context';

export interface TextInputProps
  extends Omit<TextFieldProps, 'name' | 'label' | 'value' | 'defaultValue' | 'onChange' | 'error'> {
  name: string;
  label: string;
  /** Names the value in 'Please provide {what}.'; defaults to the rule's ('an email address') or the label's. */
  what?: string;
  /** May stay empty; an empty optional field is not checked. */
  optional?: boolean;
  rule?: RuleName;
  /** Defaults to the rule's limit from common/validation.ts. */
  maxLength?: number;
  /** A check after the rule's, given the trimmed value (as typed for passwords) and every value. */
  check?: FieldCheck;
  /** Fields whose input re-checks this one (a confirmation names its password). */
  dependsOn?: readonly string[];
}

export function TextInput({
  name,
  label,
  what,
  optional,
  rule,
  maxLength,
  check,
  dependsOn,
  helperText,
  onBlur,
  slotProps,
  type,
  ...rest
}: TextInputProps) {
  const spec = {
    what: what ?? (rule ? RULES[rule].what : whatFromLabel(label)),
    optional,
    rule,
    maxLength,
    keepSpaces: type === 'password',
    check,
  };
  const form = useField(name, { label, check: (value, values) => checkText(value, spec, values), dependsOn });
  const error = form.errors[name];
  const htmlInput = typeof slotProps?.htmlInput === 'object' ? slotProps.htmlInput : {};
  return (
    <TextField
      id={form.inputId(name)}
      name={name}
      label={label}
      type={type}
      value={form.values[name] ?? ''}
      onChange={(event) => form.setValue(name, event.target.value)}
      onBlur={(event) => {
        form.blur(name);
        onBlur?.(event);
      }}
      error={error !== undefined}
      // A line is always kept for the message: were it to appear as a field is left by pressing the submit button
      // below, the button would move out from under the mouse and the click would be lost.
      helperText={error ?? helperText ?? ' '}
      slotProps={{ ...slotProps, htmlInput: { maxLength: maxLengthOf(spec), ...htmlInput } }}
      {...rest}
    />
  );
}
