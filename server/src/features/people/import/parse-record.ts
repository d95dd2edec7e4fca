/**
 * One source row → an identity record, or the reason it is rejected: the zod schema (after fast-record.ts's
 * quicker yes for the usual record), then what a schema cannot say (real calendar days, VIN check digits, keys
 * repeated within the person that the tables' primary keys would refuse, so one bad person never fails a whole
 * batch).
 */
import { isValidVin } from '@tessera/common/vin';
import type { z } from 'zod';
import { type IdentityRecord, identityRecordSchema } from '../record';
import { fastRecord } from './fast-record';

export type Parsed = { record: IdentityRecord } | { reason: string };

function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'record';
  return `${where}: ${issue.message}`;
}

/** True when `s` (YYYY-MM-DD) names a real day of the proleptic Gregorian calendar. */
export const isDayByDate = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
};

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Digits of `s` from `start` to `end` as a number, or -1 when one is not an ASCII digit. */
function digits(s: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The same answer as isDayByDate, by arithmetic: a record has some 60 dates and the Date round trip made this
 * check most of the parsing time. Anything but the YYYY-MM-DD shape goes to isDayByDate.
 */
export function isDay(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return isDayByDate(s);
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 7);
  const day = digits(s, 8, 10);
  if (year < 0 || month < 0 || day < 0) return isDayByDate(s);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!);
}

function firstRepeat<T>(items: T[], key: (item: T) => string): string | null {
  if (items.length < 2) return null;
  const seen = new Set<string>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) return k;
    seen.add(k);
  }
  return null;
}

/** Problems the schema does not catch, or null. */
export function recordProblem(r: IdentityRecord): string | null {
  const dated: [string, { firstSeen: string; lastSeen: string }[]][] = [
    ['record', [r]],
    ['emails', r.emails],
    ['phones', r.phones],
    ['ips', r.ips],
    ['devices', r.devices],
    ['vehicles', r.vehicles],
    ['properties', r.properties],
    ['companies', r.companies],
    ['behaviors', r.behaviors],
  ];
  for (const [name, items] of dated) {
    for (const [i, item] of items.entries()) {
      const where = name === 'record' ? '' : `${name}.${i}.`;
      if (!isDay(item.firstSeen)) return `${where}firstSeen: not a calendar day: "${item.firstSeen}"`;
      if (!isDay(item.lastSeen)) return `${where}lastSeen: not a calendar day: "${item.lastSeen}"`;
    }
  }
  for (const [i, v] of r.vehicles.entries()) {
    if (!isValidVin(v.vin)) return `vehicles.${i}.vin: check digit does not match: "${v.vin}"`;
  }
  const repeats: [string, string | null][] = [
    ['e-mail address', firstRepeat(r.emails, (e) => e.address)],
    ['phone number', firstRepeat(r.phones, (p) => p.number)],
    ['ip', firstRepeat(r.ips, (i) => i.ip)],
    ['device id', firstRepeat(r.devices, (d) => d.deviceId)],
    ['VIN', firstRepeat(r.vehicles, (v) => v.vin)],
    ['behavior', firstRepeat(r.behaviors, (b) => `${b.category} / ${b.name}`)],
  ];
  for (const [what, repeated] of repeats) {
    if (repeated !== null) return `${what} listed twice: "${repeated}"`;
  }
  return null;
}

export function parseRecord(value: unknown): Parsed {
  let record = fastRecord(value);
  if (!record) {
    const result = identityRecordSchema.safeParse(value);
    if (!result.success) return { reason: result.error.issues.slice(0, 3).map(issueText).join('; ') };
    record = result.data;
  }
  const problem = recordProblem(record);
  return problem ? { reason: problem } : { record };
}
