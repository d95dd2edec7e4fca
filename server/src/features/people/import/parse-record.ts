/**
 * One source row → an identity record, or the reason it is rejected: the zod schema, then what a schema cannot
 * say (real calendar days, VIN check digits, keys repeated within the person that the tables' primary keys
 * would refuse, so one bad person never fails a whole batch).
 */
import { isValidVin } from '@tessera/common/vin';
import type { z } from 'zod';
import { type IdentityRecord, identityRecordSchema } from '../record';

export type Parsed = { record: IdentityRecord } | { reason: string };

function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'record';
  return `${where}: ${issue.message}`;
}

const isDay = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
};

function firstRepeat<T>(items: T[], key: (item: T) => string): string | null {
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
  const result = identityRecordSchema.safeParse(value);
  if (!result.success) return { reason: result.error.issues.slice(0, 3).map(issueText).join('; ') };
  const problem = recordProblem(result.data);
  return problem ? { reason: problem } : { record: result.data };
}
