/**
 * Reading the console's form kit (web/src/forms) from a browser test: a field by its label, the error it shows,
 * the 'Validation failed.' banner, the new-password checklist, and an alert's severity.
 */
import type { Locator, Page } from 'playwright-core';

/** The input labelled exactly `label` (MUI ties the label to the input). */
export const field = (scope: Page | Locator, label: string): Locator => scope.getByLabel(label, { exact: true });

/**
 * The error a field shows: its helper text while the input is marked invalid (aria-invalid), else ''. A field
 * that is valid but has a helper text ('Your sign-in address') reads as ''.
 */
export function fieldError(scope: Page | Locator, label: string): Promise<string> {
  return field(scope, label).evaluate((input) => {
    if (input.getAttribute('aria-invalid') !== 'true') return '';
    const helper = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    return helper?.textContent ?? '';
  });
}

/** Whether the field has the keyboard focus. */
export function hasFocus(scope: Page | Locator, label: string): Promise<boolean> {
  return field(scope, label).evaluate((input) => input === document.activeElement);
}

/** Types at the end of a field key by key, as a person does (each key is an input event). */
export async function typeInto(scope: Page | Locator, label: string, text: string): Promise<void> {
  const input = field(scope, label);
  await input.press('End');
  await input.page().keyboard.type(text);
}

/** Focuses a field and leaves it (Tab), without typing. */
export async function visit(scope: Page | Locator, label: string): Promise<void> {
  const input = field(scope, label);
  await input.focus();
  await input.blur();
}

/** The banner a failed submit shows (spec §5). */
export const validationBanner = (scope: Page | Locator): Locator => scope.getByTestId('validation-banner');

/** The banner's list: 'Label: message' per failing field, in the form's order. */
export async function bannerItems(scope: Page | Locator): Promise<string[]> {
  return (await validationBanner(scope).locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The new-password checklist (spec §5): each item's label and whether it is met, and the whole's state. */
export async function checklist(page: Page): Promise<{ met: string[]; complete: boolean; severity: string }> {
  const list = page.getByTestId('password-checklist');
  const items = await list.locator('li').evaluateAll((lis) =>
    lis.map((li) => ({
      // The text is the label, then ', met' or ', not met' for screen readers.
      label: (li.textContent ?? '').replace(/, (not )?met$/, ''),
      met: li.getAttribute('data-met'),
    })),
  );
  return {
    met: items.filter((i) => i.met === 'true').map((i) => i.label),
    complete: (await list.getAttribute('data-complete')) === 'true',
    severity: await severityOf(list),
  };
}

/** An MUI Alert's severity, from its colour class: 'success', 'info', 'warning' or 'error'. */
export async function severityOf(alert: Locator): Promise<string> {
  const classes = (await alert.getAttribute('class')) ?? '';
  return /MuiAlert-color(\w+)/.exec(classes)?.[1]?.toLowerCase() ?? '';
}
