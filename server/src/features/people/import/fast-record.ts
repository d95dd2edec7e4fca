/**
 * A quick yes for the usual identity record: the checks of identityRecordSchema (record.ts) written out by hand,
 * five times faster than zod on generated data. It only ever says "valid" or "ask zod": any doubt (an unknown
 * or missing key, a wrong type, a pattern that does not match, an IPv6 address) returns null and parseRecord
 * runs the schema, which decides and words the reason. So it must never accept what the schema refuses;
 * fast-record.test.ts holds it to that, field by field.
 */
import { type IdentityRecord, identityRecordSchema, ipSchema } from '../record';

type Check = (value: unknown) => boolean;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\sA-Z@]+@[^\sA-Z@]+\.[^\sA-Z@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;
const DEVICE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const VIN = /^[0-9A-HJ-NPR-Z]{17}$/;
const STATE = /^([A-Z]{2})?$/;
const ZIP = /^(\d{5})?$/;
const ZIP4 = /^(\d{4})?$/;
/** zod's own IPv4 pattern (z.regexes.ipv4); anything else, IPv6 included, goes to the schema. */
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipField = ipSchema.shape.ip;

const str: Check = (v) => typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const matches =
  (re: RegExp): Check =>
  (v) =>
    typeof v === 'string' && re.test(v);
const oneOf = (...allowed: string[]): Check => {
  const set = new Set(allowed);
  return (v) => typeof v === 'string' && set.has(v);
};
const int =
  (min: number, max: number, nullable = false): Check =>
  (v) =>
    (nullable && v === null) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max);
const ip: Check = (v) => typeof v === 'string' && (IPV4.test(v) || ipField.safeParse(v).success);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** An object with exactly these keys, each passing its check. */
function strict(fields: Record<string, Check>): Check {
  const keys = Object.keys(fields);
  const checks = Object.values(fields);
  return (v) => {
    if (!isObject(v)) return false;
    let own = 0;
    for (const _ in v) own++;
    if (own !== keys.length) return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!Object.hasOwn(v, key) || !checks[i]!(v[key])) return false;
    }
    return true;
  };
}

const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return false;
    for (const x of v) if (!item(x)) return false;
    return true;
  };

const seen = { firstSeen: matches(DAY), lastSeen: matches(DAY) };

const finances = strict({ income: str, netWorth: str, credit: str });

const data: Check = (v) => {
  if (!isObject(v)) return false;
  for (const key in v) {
    if (key === '__proto__' || !Object.hasOwn(v, key) || typeof v[key] !== 'string') return false;
  }
  return true;
};

export const RECORD_CHECKS: Record<string, Check> = {
  id: int(1, Number.MAX_SAFE_INTEGER),
  firstName: str,
  middleName: str,
  lastName: str,
  suffix: str,
  gender: oneOf('F', 'M', ''),
  birthYear: int(1900, 2100, true),
  address: str,
  city: str,
  state: matches(STATE),
  zip: matches(ZIP),
  zip4: matches(ZIP4),
  ...seen,
  emails: arrayOf(strict({ address: matches(EMAIL), ...seen })),
  phones: arrayOf(
    strict({ number: matches(PHONE), type: oneOf('mobile', 'landline'), carrier: str, doNotCall: bool, ...seen }),
  ),
  ips: arrayOf(strict({ ip, ...seen })),
  devices: arrayOf(strict({ deviceId: matches(DEVICE), type: oneOf('idfa', 'aaid'), ...seen })),
  vehicles: arrayOf(strict({ vin: matches(VIN), year: int(1900, 2100, true), make: str, model: str, ...seen })),
  properties: arrayOf(strict({ type: str, value: int(0, 2_147_483_647, true), ownerOccupied: bool, ...seen })),
  finances: (v) => v === null || finances(v),
  companies: arrayOf(strict({ name: str, domain: str, title: str, ...seen })),
  behaviors: arrayOf(strict({ category: str, name: str, ...seen })),
  data,
};

const record = strict(RECORD_CHECKS);

/** Off when the schema has gained or lost a field this file does not know: then every record asks zod. */
const inStep = (() => {
  const schemaKeys = Object.keys(identityRecordSchema.shape).sort().join();
  return schemaKeys === Object.keys(RECORD_CHECKS).sort().join();
})();

/** `value` itself when it certainly satisfies identityRecordSchema, else null (ask the schema). */
export function fastRecord(value: unknown): IdentityRecord | null {
  return inStep && record(value) ? (value as IdentityRecord) : null;
}
