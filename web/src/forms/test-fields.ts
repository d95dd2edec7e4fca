/** For tests of forms built with the kit: find a field by its label, type into it, leave it, read its error. */
import { fireEvent, screen } from '@testing-library/react';

export const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

export function type(label: string, value: string): void {
  fireEvent.change(field(label), { target: { value } });
}

export function leave(label: string): void {
  fireEvent.blur(field(label));
}

/** The error a field shows (its helper text while marked invalid), or undefined. */
export function errorOf(label: string): string | undefined {
  const input = field(label);
  if (input.getAttribute('aria-invalid') !== 'true') return undefined;
  const helper = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return helper?.textContent ?? '';
}
