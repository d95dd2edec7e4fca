/** The seller printed on invoices, from the environment (decision 0064), and what a bad setting is refused with. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { DEFAULT_SELLER, sellerFromEnv } from './seller';

describe('sellerFromEnv', () => {
  it('reads the legal details, the address lines, the default tax rate and the payment days', () => {
    expect(
      sellerFromEnv({
        SELLER_LEGAL_NAME: ' Tessera Data Inc. ',
        SELLER_ADDRESS: '100 Main Street;  Springfield, IL 62701 ;',
        SELLER_TAX_ID: 'EIN 12-3456789',
        SELLER_EMAIL: 'billing@tessera.example',
        INVOICE_TAX_RATE: '8.25',
        INVOICE_PAYMENT_DAYS: '45',
      }),
    ).toEqual({
      ...DEFAULT_SELLER,
      legalName: 'Tessera Data Inc.',
      address: ['100 Main Street', 'Springfield, IL 62701'],
      taxId: 'EIN 12-3456789',
      email: 'billing@tessera.example',
      taxRate: '8.25',
      paymentDays: 45,
    });
  });

  it('is the product name with no tax and net 30 when nothing is set', () => {
    expect(sellerFromEnv({})).toEqual(DEFAULT_SELLER);
    expect(DEFAULT_SELLER).toMatchObject({ legalName: 'Tessera', taxRate: null, paymentDays: 30 });
  });

  it('refuses a bad e-mail, tax rate or number of days at start, naming the setting', () => {
    for (const [name, value] of [
      ['SELLER_EMAIL', 'billing'],
      ['INVOICE_TAX_RATE', '101'],
      ['INVOICE_PAYMENT_DAYS', '-1'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value }), name).toThrow(name);
    }
  });
});
