/**
 * The seller on every invoice (decision 0064): our company's legal details, the default tax rate and the payment
 * terms, from the environment (README, Configuration). Unset, the seller is the product name with no address or
 * tax id and no tax: enough for a trial, not for a real invoice, which is why production sets them.
 */
import { taxRateProblem } from '@tessera/common/billing';
import { PRODUCT_NAME } from '@tessera/common/constants';
import { isEmail } from '@tessera/common/validation';

export interface Seller {
  /** SELLER_LEGAL_NAME */
  legalName: string;
  /** SELLER_ADDRESS, lines separated by ';' */
  address: string[];
  /** SELLER_TAX_ID (tax or VAT id) */
  taxId: string | null;
  /** SELLER_EMAIL, SELLER_PHONE */
  email: string | null;
  phone: string | null;
  /** INVOICE_TAX_RATE: percent applied when an organization has no rate of its own; null: no tax. */
  taxRate: string | null;
  /** INVOICE_PAYMENT_DAYS: days from issue to due date. */
  paymentDays: number;
  /** INVOICE_PAYMENT_INSTRUCTIONS: how to pay (bank details), printed under the terms. */
  paymentInstructions: string | null;
}

export const DEFAULT_PAYMENT_DAYS = 30;

export const DEFAULT_SELLER: Seller = {
  legalName: PRODUCT_NAME,
  address: [],
  taxId: null,
  email: null,
  phone: null,
  taxRate: null,
  paymentDays: DEFAULT_PAYMENT_DAYS,
  paymentInstructions: null,
};

const value = (env: NodeJS.ProcessEnv, name: string) => {
  const v = env[name]?.trim();
  return v ? v : null;
};

/** The seller from the environment, or the problem with it (config.ts turns it into a ConfigError). */
export function sellerFromEnv(env: NodeJS.ProcessEnv): Seller | { problem: string } {
  const email = value(env, 'SELLER_EMAIL');
  if (email !== null && !isEmail(email)) return { problem: 'SELLER_EMAIL must be an e-mail address.' };
  const taxRate = value(env, 'INVOICE_TAX_RATE');
  if (taxRate !== null && taxRateProblem(taxRate)) {
    return { problem: 'INVOICE_TAX_RATE must be a percentage from 0 to 100 with at most three decimals.' };
  }
  const days = value(env, 'INVOICE_PAYMENT_DAYS');
  if (days !== null && !/^\d{1,3}$/.test(days)) return { problem: 'INVOICE_PAYMENT_DAYS must be 0 to 999 days.' };
  return {
    legalName: value(env, 'SELLER_LEGAL_NAME') ?? DEFAULT_SELLER.legalName,
    address: (value(env, 'SELLER_ADDRESS') ?? '')
      .split(';')
      .map((l) => l.trim())
      .filter(Boolean),
    taxId: value(env, 'SELLER_TAX_ID'),
    email,
    phone: value(env, 'SELLER_PHONE'),
    taxRate,
    paymentDays: days === null ? DEFAULT_PAYMENT_DAYS : Number(days),
    paymentInstructions: value(env, 'INVOICE_PAYMENT_INSTRUCTIONS'),
  };
}
