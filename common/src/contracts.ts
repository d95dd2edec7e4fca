/**
 * Contracts (issue 5, minimal model; the pages come later): what an organization pays for lookups and how much it
 * may use. Prices are US dollars with up to six decimals; costs are counted in millionths of a dollar.
 */
import { RECORD_TYPES, type RecordType } from './record-types';

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
  createdAt: string;
  updatedAt: string;
}

const day = (iso: string) => iso.slice(0, 10);
const dollars = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

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

export const CONTRACT_MESSAGES = {
  notFound: 'No such contract.',
  endsBeforeStart: 'The contract must end after it starts.',
  price: 'Please provide a price from 0 to 1,000,000 with at most six decimals.',
} as const;
