/**
 * The console's form kit (spec §3 form container, §5 validation). Rules, messages and limits come from
 * common/src/validation.ts; nothing here restates them.
 *
 * ```tsx
 * const form = useForm({ name: '', emailDomain: '' });     // every value is a string
 * <FormContainer form={form} onValid={(v) => api.put(path, v)}>
 *   <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} />       // required: 'Please provide a name.'
 *   <TextInput name="emailDomain" label="Email Domain" rule="domain" optional />
 *   <Button type="submit" disabled={form.busy}>Save</Button>
 * </FormContainer>
 * ```
 *
 * - A field checks itself when first left, then on every input; a submit checks every field.
 * - Fields are required unless `optional`; an empty optional field is not checked. Blank or whitespace fails
 *   with 'Please provide {what}.' (`what` defaults to the rule's, else 'a {label}').
 * - A failed submit shows the 'Validation failed.' banner listing the errors and focuses the first field.
 *   A passing one sets `form.submitted` and calls onValid. If onValid rejects with an ApiError (the client has
 *   already shown it), a 400's `fields` go onto the fields of the same name, and `submitted` is cleared.
 * - `form.reset(values)` loads values that arrive later; `form.dirty` says whether anything changed since.
 * - Selects: `<TextInput select …>` with MenuItem children. Checkboxes: `CheckboxInput` ('true' or '').
 * - Own checks: `check={(value, values) => message | undefined}`, with `dependsOn` naming fields it reads.
 */
export { CheckboxInput } from './checkbox-input';
export { checkText, type FieldCheck, type FormValues, RULES, type RuleName } from './field-rules';
export { FormActions } from './form-actions';
export { FormContainer } from './form-container';
export { useFormContext } from './form-context';
export { type FormFailure, FormOutcome } from './form-outcome';
export { PasswordChecklist } from './password-checklist';
export { ConfirmPasswordField, NewPasswordField } from './password-fields';
export { StaleAlert } from './stale-alert';
export { TextInput, type TextInputProps } from './text-input';
export { type FormApi, useForm } from './use-form';
