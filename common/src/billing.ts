/**
 * Self-serve billing (issue 32 item 10, decision 0064): an organization's billing details (who invoices are made
 * out to), the tax rate, and the messages. Server schemas and the console's form use these rules alike.
 */
import { canEditOrganization, hasRank, ROLE_LABEL, type Role } from './roles';
import { MAX_LENGTH, MESSAGES } from './validation';

/** Who an invoice is made out to, as kept for an organization and copied onto each invoice when it is issued. */
export interface BillingParty {
  legalName: string;
  street: string;
  city: string;
  /** Two-letter US state, DC or territory abbreviation (common/states.ts). */
  state: string;
  zip: string;
  /** Tax or VAT id, or null. */
  taxId: string | null;
  /** Where invoices are sent, or null. */
  email: string | null;
}

export interface BillingDetails extends BillingParty {
  /** The organization's id. */
  id: number;
  /** Percent as decimal text ('8.25'), set by System Administrators; null: the seller's default rate applies. */
  taxRate: string | null;
  updatedAt: string;
}

/** GET /v2/billing/{organizationId}: the details (null until given) and what applies to the next invoice. */
export interface BillingOverview {
  id: number;
  details: BillingDetails | null;
  /** The rate the next invoice is taxed at (the organization's, else the seller's), or null: no tax. */
  taxRate: string | null;
  /** Days from issue to due date. */
  paymentDays: number;
}

export const BILLING_LIMITS = {
  legalName: MAX_LENGTH.name,
  street: MAX_LENGTH.address,
  city: MAX_LENGTH.city,
  taxIdMin: 2,
  taxIdMax: 30,
  taxRateMax: 100,
  taxRateDecimals: 3,
} as const;

export const BILLING_MESSAGES = {
  legalName: MESSAGES.required('a legal name'),
  taxId: `Please provide a tax ID of ${BILLING_LIMITS.taxIdMin} to ${BILLING_LIMITS.taxIdMax} letters, digits, spaces, dots, hyphens or slashes.`,
  taxRate: 'Please provide a tax rate from 0 to 100 percent with at most three decimals.',
  taxRateStaff: 'Only a System Administrator can set an organization’s tax rate.',
  notFound: 'There is no such organization.',
  forbidden: `Billing is for ${ROLE_LABEL.admin}s and ${ROLE_LABEL.super}s.`,
} as const;

/**
 * Billing (invoices, month-to-date cost, billing details): an Organization Administrator for their own
 * organization, a System Administrator or above for any (spec §6 roles). Organization Users have no billing.
 */
export const canSeeBilling = (actor: { role: Role; organizationId: number | null }, organizationId: number) =>
  canEditOrganization({ ...actor, id: 0 }, organizationId);

/** Whether the role has billing at all (for its own organization at least). */
export const hasBilling = (role: Role) => hasRank(role, 'admin');

const TAX_ID = new RegExp(
  `^[A-Za-z0-9](?:[A-Za-z0-9 ./-]{${BILLING_LIMITS.taxIdMin - 2},${BILLING_LIMITS.taxIdMax - 2}})[A-Za-z0-9]$`,
);
const PERCENT = /^\d{1,3}(\.\d+)?$/;

/** The message a tax ID fails with (e.g. 12-3456789, GB123456789, DE 123 456 789), or undefined. */
export const taxIdProblem = (text: string) => (TAX_ID.test(text.trim()) ? undefined : BILLING_MESSAGES.taxId);

/** The message a tax rate (percent, as typed) fails with, or undefined: 0 to 100, at most three decimals. */
export function taxRateProblem(text: string): string | undefined {
  const t = text.trim();
  if (!PERCENT.test(t)) return BILLING_MESSAGES.taxRate;
  const [whole, fraction = ''] = t.split('.') as [string, string?];
  if (fraction.replace(/0+$/, '').length > BILLING_LIMITS.taxRateDecimals) return BILLING_MESSAGES.taxRate;
  if (Number(whole) > BILLING_LIMITS.taxRateMax || (Number(whole) === 100 && /[1-9]/.test(fraction))) {
    return BILLING_MESSAGES.taxRate;
  }
  return undefined;
}

/** A percentage as printed: '8.250' → '8.25%', '20.000' → '20%'. */
export const percentText = (rate: string) => `${rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate}%`;
