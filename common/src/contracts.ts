/**
 * Contracts (issue 5, minimal model; the pages come later): what an organization pays for lookups and how much it
 * may use. Prices are US dollars with up to six decimals; costs are counted in millionths of a dollar.
 */
import { formatDay } from './dates';
import { formatMicros, formatMoney } from './money';
import { RECORD_TYPES, type RecordType } from './record-types';
import { isInteger, MAX_LENGTH, MESSAGES } from './validation';

export const CONTRACT_STATUSES = ['active', 'suspended', 'cancelled'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** Identity-record groups priced on their own: per identity returned holding records of the group. */
export const PRICE_GROUPS: readonly RecordType[] = RECORD_TYPES;

export interface Contract {
  id: number;
  organizationId: number;
  name: string;
  startsAt: string;
  endsAt: string;
  status: ContractStatus;
  pricePerRequest: number;
  pricePerIdentity: number;
  /** Price per identity returned with records of the group, e.g. { phones: 0.01 }. */
  groupPrices: Partial<Record<string, number>>;
  /** Most the organization may spend in a calendar month (UTC), or null for no limit. */
  monthlyLimit: number | null;
  /** Requests per minute for the whole organization, or null for no limit. */
  rateLimit: number | null;
  /** Price per change event of a subscribed identity delivered (issue 33 item 2). */
  pricePerEvent: number;
  /** Most live change subscriptions the organization may hold, or null for no limit. */
  subscriptionLimit: number | null;
  createdAt: string;
  updatedAt: string;
}

const day = formatDay;
const dollars = formatMoney;

/** The 402 messages (spec §8 'Payment Error'): what is wrong and what to do. */
export const PAYMENT_MESSAGES = {
  noOrganization: 'You do not belong to an organization, so there is no contract to charge lookups to.',
  none: 'Your organization has no active contract. Please contact us to start one.',
  notStarted: (startsAt: string) => `Your organization's contract starts on ${day(startsAt)}.`,
  ended: (endsAt: string) => `Your organization's contract ended on ${day(endsAt)}. Please renew it to continue.`,
  suspended: "Your organization's contract is suspended. Please contact us.",
  cancelled: "Your organization's contract was cancelled.",
  limit: (limit: number, resumes: string) =>
    `Your organization has reached its monthly limit of ${dollars(limit)}; lookups resume on ${day(resumes)} or when the limit is raised.`,
} as const;

export const CONTRACT_LIMITS = {
  /** Highest price and monthly limit, in dollars. */
  maxAmount: 1_000_000,
  priceDecimals: 6,
  limitDecimals: 2,
  maxRateLimit: 10_000_000,
  nameMax: MAX_LENGTH.name,
} as const;

export const CONTRACT_MESSAGES = {
  notFound: 'No such contract.',
  endsBeforeStart: 'The contract must end after it starts.',
  price: 'Please provide a price from 0 to 1,000,000 with at most six decimals.',
  limit: 'Please provide a monthly limit from 0 to 1,000,000 with at most two decimals.',
  rateLimit: 'Please provide a rate limit from 1 to 10,000,000 requests a minute.',
  subscriptionLimit: 'Please provide a subscription limit from 0 to 10,000,000 subscriptions.',
  status: 'Please choose a status: active, suspended or cancelled.',
  group: `Please price only these record groups: ${RECORD_TYPES.join(', ')}.`,
  forbidden: "Only the organization's administrators and system administrators may see its contracts.",
  inUse: 'This contract is referred to by other records (such as invoices) and cannot be deleted; cancel it instead.',
} as const;

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
  cancelled: 'Cancelled',
};

/** Field labels, for the form and the history's 'what changed'. */
export const CONTRACT_FIELD_LABELS: Record<string, string> = {
  organizationId: 'Organization',
  name: 'Name',
  startsAt: 'Starts',
  endsAt: 'Ends',
  status: 'Status',
  pricePerRequest: 'Price per request',
  pricePerIdentity: 'Price per identity returned',
  groupPrices: 'Prices per record group',
  monthlyLimit: 'Monthly limit',
  rateLimit: 'Rate limit',
  pricePerEvent: 'Price per change event',
  subscriptionLimit: 'Subscription limit',
};

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The message a dollar amount fails with, or undefined: the §5 number rule ('Please provide a valid number.'), then
 * 0 to 1,000,000 with at most `decimals` places. `text` is the amount as typed or as a JSON number prints.
 */
export function moneyProblem(text: string, decimals: number, message: string): string | undefined {
  if (!DECIMAL.test(text)) return MESSAGES.number;
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  if (fraction.replace(/0+$/, '').length > decimals) return message;
  if (
    Number(whole) > CONTRACT_LIMITS.maxAmount ||
    (Number(whole) === CONTRACT_LIMITS.maxAmount && /[1-9]/.test(fraction))
  ) {
    return message;
  }
  return undefined;
}

export const priceProblem = (text: string) =>
  moneyProblem(text, CONTRACT_LIMITS.priceDecimals, CONTRACT_MESSAGES.price);
export const limitProblem = (text: string) =>
  moneyProblem(text, CONTRACT_LIMITS.limitDecimals, CONTRACT_MESSAGES.limit);

/** The §5 integer rule, then 1 to 10,000,000. */
export function rateLimitProblem(text: string): string | undefined {
  if (!isInteger(text)) return MESSAGES.integer;
  const n = Number(text);
  return n >= 1 && n <= CONTRACT_LIMITS.maxRateLimit ? undefined : CONTRACT_MESSAGES.rateLimit;
}

/** The §5 integer rule, then 0 to 10,000,000 (0: no subscriptions). */
export function subscriptionLimitProblem(text: string): string | undefined {
  if (!isInteger(text)) return MESSAGES.integer;
  const n = Number(text);
  return n >= 0 && n <= CONTRACT_LIMITS.maxRateLimit ? undefined : CONTRACT_MESSAGES.subscriptionLimit;
}

/** A dollar amount (a decimal string without exponent) in millionths of a dollar, exactly: no float arithmetic. */
export function microsOf(text: string): bigint {
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return BigInt(whole) * 1_000_000n + BigInt(`${fraction}000000`.slice(0, 6));
}

/** Millionths of a dollar in the one money format (money.ts): '$1,234.56', '$0.000123'. */
export const dollarsOf = (micros: bigint): string => formatMicros(micros);

/**
 * The contract an organization's calls are priced by now, as the 402 check chooses it (contracts/billing.ts): the
 * latest started one (the higher id of two started at once), if it is active and not yet ended.
 */
export function contractInForce<C extends Pick<Contract, 'id' | 'startsAt' | 'endsAt' | 'status'>>(
  contracts: C[],
  now: number,
): C | null {
  const started = contracts
    .filter((c) => Date.parse(c.startsAt) <= now)
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt) || b.id - a.id)[0];
  return started && started.status === 'active' && Date.parse(started.endsAt) > now ? started : null;
}

/** This month's spending of a contract's organization (UTC month, as the 402 check counts it). */
export interface ContractSpend {
  /** The contract's id. */
  id: number;
  /** 'YYYY-MM' */
  month: string;
  /** Dollars as an exact decimal string. */
  spent: string;
  /** Dollars as an exact decimal string, or null for no limit. */
  monthlyLimit: string | null;
}

export type ContractChangeAction = 'created' | 'updated' | 'deleted';

/** One entry of a contract's history: who changed what, and when. */
export interface ContractChange {
  id: number;
  contractId: number;
  organizationId: number;
  action: ContractChangeAction;
  /** Each changed field's value before and after (null: none, on creation or deletion). */
  changes: Record<string, { from: unknown; to: unknown }>;
  userId: number | null;
  /** The name (or e-mail) of who made the change, when known. */
  userName: string | null;
  at: string;
}
