/** The form a field belongs to, and a field's registration with it. */
import { createContext, useContext, useLayoutEffect, useRef } from 'react';
import type { FieldRegistration, FormApi } from './use-form';

export const FormContext = createContext<FormApi | null>(null);

export function useFormContext(): FormApi {
  const form = useContext(FormContext);
  if (!form) throw new Error('A form field must sit inside a FormContainer');
  return form;
}

/** Registers a field's check with its form for as long as the field is mounted; the latest check is used. */
export function useField(name: string, registration: FieldRegistration): FormApi {
  const form = useFormContext();
  const ref = useRef(registration);
  ref.current = registration;
  useLayoutEffect(() => form.register(name, ref), [form.register, name]);
  return form;
}
