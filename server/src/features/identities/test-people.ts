/**
 * Test people with keys no other test has (the worker's database is shared), written by the real importer,
 * and a signed-in caller. Dates are relative to today so recency scores hold whenever the tests run.
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { withCheckDigit } from '@tessera/common/vin';
import type { Database } from '../../db/client';
import { ownIdBase } from '../people/import/test-records';
import { writeBatch } from '../people/import/write-batch';
import type { IdentityRecord } from '../people/record';

let next = ownIdBase();
export const newId = () => ++next;

/** YYYY-MM-DD, `days` before today. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const recent = { firstSeen: daysAgo(400), lastSeen: daysAgo(10) };

export const uniqueEmail = () => `p-${randomUUID()}@people.example`;
/** A NANP mobile number no other test draws (area code and exchange from 2-9). */
export const uniquePhone = () =>
  `+1${randomInt(2, 10)}${randomInt(10, 100)}${randomInt(2, 10)}${String(randomInt(0, 1e6)).padStart(6, '0')}`;
const group = () => randomInt(1, 0x10000).toString(16);
/** Canonical IPv6 (RFC 5952) in the documentation range. */
export const uniqueIpv6 = () => `2001:db8:${group()}:${group()}:${group()}:${group()}:${group()}:1`;
export const uniqueDevice = () => randomUUID();
export const uniqueVin = () => {
  const chars = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
  const body = Array.from({ length: 17 }, () => chars[randomInt(chars.length)]).join('');
  return withCheckDigit(body);
};
export const md5 = (s: string) => createHash('md5').update(s).digest('hex');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A person with one of each linked record, every key unique; `over` replaces any part. */
/**
 * A ZIP code of its own for a PII test: the default (62701) is shared by every test person, and a shared PostgreSQL
 * test database holds hundreds of them, more than a ZIP block's cap, so a search there may not reach the one wanted.
 */
export const uniqueZip = () => String(randomInt(10000, 99999));

/**
 * A surname of random letters: two test people share neither its spelling nor (almost never) its sound, so a PII
 * search for one never ties with another left in a shared test database.
 */
function randomSurname(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const rest = Array.from({ length: 9 }, () => letters[randomInt(letters.length)]).join('');
  return `${letters[randomInt(letters.length)]!.toUpperCase()}${rest}`;
}

export function person(over: Partial<IdentityRecord> = {}): IdentityRecord {
  return {
    id: newId(),
    firstName: 'Robert',
    middleName: 'J',
    lastName: randomSurname(),
    suffix: '',
    gender: 'M',
    birthYear: 1980,
    address: `${randomInt(100, 9999)} North Oak Street Apt 4`,
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    zip4: '',
    ...recent,
    emails: [{ address: uniqueEmail(), ...recent }],
    phones: [{ number: uniquePhone(), type: 'mobile', carrier: 'Carrier', doNotCall: false, ...recent }],
    ips: [{ ip: uniqueIpv6(), ...recent }],
    devices: [{ deviceId: uniqueDevice(), type: 'idfa', ...recent }],
    vehicles: [{ vin: uniqueVin(), year: 2015, make: 'Honda', model: 'Accord', ...recent }],
    properties: [{ type: 'Single Family Residence', value: 250000, ownerOccupied: true, ...recent }],
    finances: { income: '$50K-$75K', netWorth: '$100K-$250K', credit: 'Good (670-739)' },
    companies: [{ name: 'Example Inc', domain: 'example.com', title: 'Engineer', ...recent }],
    behaviors: [{ category: 'Interests', name: 'Travel', ...recent }],
    data: { maritalStatus: 'Married' },
    ...over,
  };
}

export async function load(database: Database, ...people: IdentityRecord[]): Promise<void> {
  await writeBatch(database, people);
}

export async function suppress(database: Database, kind: string, value: string): Promise<void> {
  await database.query('insert into suppressions (kind, value) values ($1, $2) on conflict do nothing', [kind, value]);
}
