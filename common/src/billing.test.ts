import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, percentText, taxIdProblem, taxRateProblem } from './billing';

describe('billing details rules (decision 0064)', () => {
  it('takes tax and VAT ids of letters and digits with spaces, dots, hyphens and slashes between', () => {
    for (const good of ['12-3456789', 'GB123456789', 'DE 123 456 789', 'AB', 'FR.12/345']) {
      expect(taxIdProblem(good), good).toBeUndefined();
    }
    for (const bad of ['', 'A', '-123', '123-', '12_345', 'x'.repeat(31), 'ÄB12']) {
      expect(taxIdProblem(bad), bad).toBe(BILLING_MESSAGES.taxId);
    }
  });

  it('takes tax rates from 0 to 100 percent with at most three decimals', () => {
    for (const good of ['0', '8.25', '19', '100', '100.000', '7.125', '20.1000']) {
      expect(taxRateProblem(good), good).toBeUndefined();
    }
    for (const bad of ['', '-1', '100.001', '101', '8.2501', 'ten', '1e2', '8,25', '.5']) {
      expect(taxRateProblem(bad), bad).toBe(BILLING_MESSAGES.taxRate);
    }
  });

  it('prints a rate without trailing zeros', () => {
    expect([percentText('8.250'), percentText('20.000'), percentText('19'), percentText('0.000')]).toEqual([
      '8.25%',
      '20%',
      '19%',
      '0%',
    ]);
  });
});
