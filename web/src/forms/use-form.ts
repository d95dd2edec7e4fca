/**
 * A form's state (spec §3 form container, §5 timing): values, errors, which fields have been left once
 * ('touched'), and whether the last submit passed. Fields register their checks; a field validates when first
 * left, then on every input; a submit validates every field.
 */
import { type RefObject, useCallback, useId, useMemo, useRef, useState } from 'react';
import { ApiError, fieldErrors } from '../lib/api';
import type { FieldCheck, FormValues } from './field-rules';

export interface FieldRegistration {
  /** Names the field in the banner's list. */
  label: string;
  check: FieldCheck;
  /** Other fields whose input re-checks this one once it is touched (a confirmation its password). */
  dependsOn?: readonly string[];
}

type Errors = Partial<Record<string, string>>;

interface FormState<V extends FormValues> {
  values: V;
  initial: V;
  errors: Errors;
  touched: Partial<Record<string, true>>;
  submitted: boolean;
  busy: boolean;
  failed: boolean;
}

export interface FormApi<V extends FormValues = FormValues> {
  /** Prefix of the fields' element ids. */
  id: string;
  values: V;
  errors: Errors;
  /** The last submit passed validation (and onValid has not failed since). */
  submitted: boolean;
  /** onValid is running. */
  busy: boolean;
  /** The last submit failed validation, on the client or the server, and errors remain: the banner shows. */
  failed: boolean;
  /** Values differ from the initial ones (or those of the last reset). */
  dirty: boolean;
  setValue(name: keyof V & string, value: string): void;
  blur(name: keyof V & string): void;
  /** Puts errors on fields, such as a 400's `fields`; returns how many named a field of this form. */
  setErrors(errors: Record<string, string>): number;
  /** Starts again from these values (or the initial ones): no errors, nothing touched, not submitted. */
  reset(values?: V): void;
  /** Validates every field; if all pass, marks the form submitted and runs onValid. */
  submit(onValid: (values: V) => unknown): Promise<boolean>;
  register(name: string, field: RefObject<FieldRegistration>): () => void;
  labelOf(name: string): string;
  inputId(name: string): string;
}

function fresh<V extends FormValues>(values: V): FormState<V> {
  return { values, initial: values, errors: {}, touched: {}, submitted: false, busy: false, failed: false };
}

const hasErrors = (errors: Errors) => Object.values(errors).some((e) => e !== undefined);

export function useForm<V extends FormValues>(initialValues: V): FormApi<V> {
  const id = useId();
  const [state, setState] = useState(() => fresh(initialValues));
  const latest = useRef(state);
  latest.current = state;
  const fields = useRef(new Map<string, RefObject<FieldRegistration>>());

  /** Errors with `names` checked again against `values`. */
  const recheck = useCallback((errors: Errors, values: V, names: Iterable<string>): Errors => {
    const next = { ...errors };
    for (const name of names) {
      const field = fields.current.get(name)?.current;
      if (field) next[name] = field.check(values[name] ?? '', values);
    }
    return next;
  }, []);

  /** The field itself and those whose check reads it. */
  const affectedBy = useCallback(
    (name: string) => [
      name,
      ...[...fields.current].filter(([, f]) => f.current.dependsOn?.includes(name)).map(([other]) => other),
    ],
    [],
  );

  const setValue = useCallback(
    (name: keyof V & string, value: string) =>
      setState((s) => {
        const values = { ...s.values, [name]: value };
        const errors = recheck(
          s.errors,
          values,
          affectedBy(name).filter((n) => s.touched[n]),
        );
        return { ...s, values, errors, failed: s.failed && hasErrors(errors) };
      }),
    [recheck, affectedBy],
  );

  const blur = useCallback(
    (name: keyof V & string) =>
      setState((s) => {
        const errors = recheck(s.errors, s.values, [name]);
        return { ...s, errors, touched: { ...s.touched, [name]: true }, failed: s.failed && hasErrors(errors) };
      }),
    [recheck],
  );

  const setErrors = useCallback((incoming: Record<string, string>) => {
    const known = Object.entries(incoming).filter(([name]) => fields.current.has(name));
    if (known.length > 0) {
      setState((s) => ({
        ...s,
        errors: { ...s.errors, ...Object.fromEntries(known) },
        touched: { ...s.touched, ...Object.fromEntries(known.map(([n]) => [n, true as const])) },
        failed: true,
        submitted: false,
      }));
    }
    return known.length;
  }, []);

  const reset = useCallback((values?: V) => setState((s) => fresh(values ?? s.initial)), []);

  const inputId = useCallback((name: string) => `${id}-${name}`, [id]);

  const submit = useCallback(
    async (onValid: (values: V) => unknown) => {
      const { values, busy } = latest.current;
      if (busy) return false;
      const names = [...fields.current.keys()];
      const errors = recheck({}, values, names);
      const touched = Object.fromEntries(names.map((n) => [n, true as const]));
      if (hasErrors(errors)) {
        setState((s) => ({ ...s, errors, touched, failed: true, submitted: false }));
        const first = names.find((n) => errors[n] !== undefined);
        if (first) document.getElementById(inputId(first))?.focus();
        return false;
      }
      setState((s) => ({ ...s, errors: {}, touched, failed: false, submitted: true, busy: true }));
      try {
        await onValid(values);
        setState((s) => ({ ...s, busy: false }));
        return true;
      } catch (err) {
        setState((s) => ({ ...s, busy: false, submitted: false }));
        // The API client has already shown the error; a 400's failing fields go back onto their fields.
        if (err instanceof ApiError) {
          setErrors(fieldErrors(err.body));
          return false;
        }
        throw err;
      }
    },
    [recheck, setErrors, inputId],
  );

  const register = useCallback((name: string, field: RefObject<FieldRegistration>) => {
    fields.current.set(name, field);
    return () => {
      if (fields.current.get(name) === field) fields.current.delete(name);
    };
  }, []);

  const labelOf = useCallback((name: string) => fields.current.get(name)?.current.label ?? name, []);

  return useMemo(() => {
    const dirty = Object.keys({ ...state.values, ...state.initial }).some((k) => state.values[k] !== state.initial[k]);
    const { values, errors, submitted, busy, failed } = state;
    return {
      id,
      values,
      errors,
      submitted,
      busy,
      failed,
      dirty,
      setValue,
      blur,
      setErrors,
      reset,
      submit,
      register,
      labelOf,
      inputId,
    };
  }, [state, id, setValue, blur, setErrors, reset, submit, register, labelOf, inputId]);
}
