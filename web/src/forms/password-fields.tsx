/** Spec §5 password fields: a new password with its checklist, and a confirmation that must match it. */
import Stack from '@mui/material/Stack';
import { MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
import { useFormContext } from './form-context';
import { PasswordChecklist } from './password-checklist';
import { TextInput, type TextInputProps } from './text-input';

type PasswordProps = Partial<Omit<TextInputProps, 'type' | 'rule'>>;

export function NewPasswordField({
  name = 'newPassword',
  label = 'New Password',
  what = 'a new password',
  ...rest
}: PasswordProps) {
  const form = useFormContext();
  return (
    <Stack spacing={1}>
      <TextInput
        name={name}
        label={label}
        what={what}
        type="password"
        rule="password"
        autoComplete="new-password"
        {...rest}
      />
      <PasswordChecklist value={form.values[name] ?? ''} />
    </Stack>
  );
}

export function ConfirmPasswordField({
  name = 'newPassword2',
  label = 'Confirm New Password',
  what = 'the new password again',
  matches = 'newPassword',
  ...rest
}: PasswordProps & { /** The field this one repeats. */ matches?: string }) {
  return (
    <TextInput
      name={name}
      label={label}
      what={what}
      type="password"
      autoComplete="new-password"
      maxLength={MAX_LENGTH.password}
      check={(value, values) => (value === (values[matches] ?? '') ? undefined : MESSAGES.passwordConfirmation)}
      dependsOn={[matches]}
      {...rest}
    />
  );
}
