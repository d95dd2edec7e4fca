/**
 * The contract form's values (every one a string, as the form kit holds them) to and from a contract, and how
 * amounts are shown. Amounts stay decimal text end to end; the server checks them with the same rules.
 */
import { CONTRACT_MESSAGES, type Contract, type ContractStatus, PRICE_GROUPS } from '@tessera/common/contracts';
import { formatMoney } from '@tessera/common/money';
import { isDate } from '@tessera/common/validation';

export type ContractValues = Record<string, string>;

/** A JSON number of at most six decimals as the decimal text it was written as. */
export const decimalText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(6).replace(/0+$/, ''));

/** '$0.000123', '$1,000.50': the one money format (common/money.ts). */
export const money = (n: number) => formatMoney(decimalText(n));

/** A day (YYYY-MM-DD) of an ISO time, UTC, the zone contracts start and end in: the form's value, not for display. */
export const dayOf = (iso: string) => iso.slice(0, 10);
const midnight = (day: string) => `${day}T00:00:00Z`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export function checkDay(value: string): string | undefined {
  return DAY.test(value) && isDate(midnight(value)) ? undefined : 'Please provide a valid date.';
}
export function checkEnd(value: string, values: ContractValues): string | undefined {
  return (
    checkDay(value) ?? (values.startsAt && value <= values.startsAt ? CONTRACT_MESSAGES.endsBeforeStart : undefined)
  );
}

export function emptyValues(now = new Date()): ContractValues {
  const start = now.toISOString().slice(0, 10);
  const end = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), now.getUTCDate())).toISOString();
  return {
    name: '',
    startsAt: start,
    endsAt: dayOf(end),
    status: 'active',
    pricePerRequest: '0',
    pricePerIdentity: '0',
    monthlyLimit: '',
    rateLimit: '',
    pricePerEvent: '0',
    subscriptionLimit: '',
    ...Object.fromEntries(PRICE_GROUPS.map((g) => [g, ''])),
  };
}

export function valuesOf(c: Contract): ContractValues {
  return {
    name: c.name,
    startsAt: dayOf(c.startsAt),
    endsAt: dayOf(c.endsAt),
    status: c.status,
    pricePerRequest: decimalText(c.pricePerRequest),
    pricePerIdentity: decimalText(c.pricePerIdentity),
    monthlyLimit: c.monthlyLimit === null ? '' : decimalText(c.monthlyLimit),
    rateLimit: c.rateLimit === null ? '' : String(c.rateLimit),
    pricePerEvent: decimalText(c.pricePerEvent),
    subscriptionLimit: c.subscriptionLimit === null ? '' : String(c.subscriptionLimit),
    ...Object.fromEntries(
      PRICE_GROUPS.map((g) => [g, c.groupPrices[g] === undefined ? '' : decimalText(c.groupPrices[g]!)]),
    ),
  };
}

export interface ContractBody {
  name?: string;
  startsAt?: string;
  endsAt?: string;
  status?: ContractStatus;
  pricePerRequest?: string;
  pricePerIdentity?: string;
  groupPrices?: Record<string, string>;
  monthlyLimit?: string | null;
  rateLimit?: string | null;
  pricePerEvent?: string;
  subscriptionLimit?: string | null;
}

/** The body a save sends: everything on creation; on an edit only what differs from `initial`. */
export function bodyOf(values: ContractValues, initial?: ContractValues): ContractBody {
  const trim = (k: string) => (values[k] ?? '').trim();
  const full: ContractBody = {
    name: trim('name'),
    startsAt: midnight(trim('startsAt')),
    endsAt: midnight(trim('endsAt')),
    status: trim('status') as ContractStatus,
    pricePerRequest: trim('pricePerRequest'),
    pricePerIdentity: trim('pricePerIdentity'),
    groupPrices: Object.fromEntries(PRICE_GROUPS.filter((g) => trim(g) !== '').map((g) => [g, trim(g)])),
    monthlyLimit: trim('monthlyLimit') === '' ? null : trim('monthlyLimit'),
    rateLimit: trim('rateLimit') === '' ? null : trim('rateLimit'),
    pricePerEvent: trim('pricePerEvent'),
    subscriptionLimit: trim('subscriptionLimit') === '' ? null : trim('subscriptionLimit'),
  };
  if (!initial) return full;
  const changed = (keys: string[]) => keys.some((k) => trim(k) !== (initial[k] ?? '').trim());
  const out: ContractBody = {};
  for (const key of Object.keys(full) as (keyof ContractBody)[]) {
    const keys = key === 'groupPrices' ? [...PRICE_GROUPS] : [key];
    if (changed(keys)) (out as Record<string, unknown>)[key] = full[key];
  }
  return out;
}
