/**
 * Spec §3/§4 form container: a `<form>` whose submit validates every field, then either shows the banner and
 * marks the errors, or becomes submitted and calls onValid.
 */
import Box, { type BoxProps } from '@mui/material/Box';
import type { ReactNode } from 'react';
import type { FormValues } from './field-rules';
import { FormContext } from './form-context';
import type { FormApi } from './use-form';
import { ValidationBanner } from './validation-banner';

export interface FormContainerProps<V extends FormValues> extends Omit<BoxProps<'form'>, 'onSubmit' | 'component'> {
  form: FormApi<V>;
  /** Runs with the values once every field passes. Rejecting with an ApiError puts a 400's `fields` back. */
  onValid: (values: V) => unknown;
  children: ReactNode;
}

export function FormContainer<V extends FormValues>({ form, onValid, children, ...box }: FormContainerProps<V>) {
  return (
    <FormContext.Provider value={form}>
      <Box
        component="form"
        noValidate
        {...box}
        onSubmit={(event) => {
          event.preventDefault();
          void form.submit(onValid);
        }}
      >
        <ValidationBanner />
        {children}
      </Box>
    </FormContext.Provider>
  );
}
