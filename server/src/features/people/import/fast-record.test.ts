/**
 * fast-record.ts may only say yes where the zod schema does: generated records pass it, and no variation of a
 * record that the schema refuses (every field set to values of every kind) gets past it. The schema's day check
 * by arithmetic matches the Date round trip it replaced.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { identityRecordJsonSchema, identityRecordSchema } from '../record';
import { fastRecord, RECORD_CHECKS } from './fast-record';
import { isDay, isDayByDate } from './parse-record';
import { generatedPeople } from './test-records';

const zodAccepts = (value: unknown) => identityRecordSchema.safeParse(value).success;

/** Values of every kind a field could wrongly (or rightly) hold. */
const CANDIDATES: unknown[] = [
  null,
  '',
  'x',
  'Ann',
  0,
  1,
  -1,
  1.5,
  1899,
  1900,
  2100,
  2101,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  [],
  {},
  [{}],
  '2020-01-01',
  '2020-1-01',
  '2020-01-01 ',
  'a@b.co',
  'A@b.co',
  '+14155550123',
  '4155550123',
  '1.2.3.4',
  '01.2.3.4',
  '256.1.1.1',
  '::1',
  '0::1',
  '::1\n',
  'fe80::1%eth0',
  '1N4THFCH7NK820376',
  '1N4THFCH7NK82037O',
  'd65d5c99-a2b3-4902-8ac1-e5aebf8783d2',
  'D65D5C99-A2B3-4902-8AC1-E5AEBF8783D2',
  'F',
  'M',
  'X',
  'mobile',
  'landline',
  'idfa',
  'aaid',
  'TX',
  'tx',
  '78701',
  '7870',
  '1234',
];

type Path = (string | number)[];

function leafPaths(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((v, i) => leafPaths(v, [...path, i]))];
  if (typeof value === 'object' && value !== null) {
    return [path, ...Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]))];
  }
  return [path];
}

function withValue(record: unknown, path: Path, value: unknown, remove = false): unknown {
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

/** A generated person with every kind of linked record filled. */
function fullRecord() {
  const people = generatedPeople(400, 'fast-record', 0);
  const full = people.find(
    (p) => p.emails.length && p.phones.length && p.ips.length && p.devices.length && p.vehicles.length && p.finances,
  );
  const withProperty = people.find((p) => p.properties.length)!;
  const withCompany = people.find((p) => p.companies.length)!;
  const withBehavior = people.find((p) => p.behaviors.length)!;
  return JSON.parse(
    JSON.stringify({
      ...full!,
      properties: withProperty.properties,
      companies: withCompany.companies,
      behaviors: withBehavior.behaviors,
    }),
  );
}

describe('the quick record check', () => {
  it('knows every field of the schema, and the schema is the one it was written against', () => {
    expect(Object.keys(RECORD_CHECKS).sort()).toEqual(Object.keys(identityRecordSchema.shape).sort());
    // When this fails the record schema changed: bring fast-record.ts in line with it, then update the hash.
    const schema = JSON.stringify(identityRecordJsonSchema());
    expect(createHash('sha256').update(schema).digest('hex').slice(0, 16)).toBe('47f22944f8ab0797');
  });

  it('accepts generated records as they are', () => {
    for (const person of generatedPeople(300, 'fast-record-ok', 0)) {
      const value = JSON.parse(JSON.stringify(person));
      expect(fastRecord(value)).toBe(value);
      expect(zodAccepts(value)).toBe(true);
    }
  });

  it('never accepts a variation the schema refuses', () => {
    const base = fullRecord();
    expect(zodAccepts(base)).toBe(true);
    let refused = 0;
    const check = (value: unknown) => {
      if (zodAccepts(value)) return;
      refused++;
      expect(fastRecord(value), JSON.stringify(value).slice(0, 300)).toBeNull();
    };
    for (const path of leafPaths(base)) {
      if (path.length === 0) continue;
      for (const value of CANDIDATES) check(withValue(base, path, value));
      check(withValue(base, path, undefined, true));
    }
    const withProtoKey = (value: object) => {
      const rest = JSON.stringify(value).slice(1);
      return JSON.parse(`{"__proto__": "x"${rest === '}' ? '' : ','}${rest}`);
    };
    check(withProtoKey(base));
    for (const where of [['emails', 0], ['finances'], ['data'], ['vehicles', 0]] as Path[]) {
      check(withValue(base, [...where, 'extra'], 'x'));
      let nested: unknown = base;
      for (const key of where) nested = (nested as Record<string | number, unknown>)[key];
      check(withValue(base, where, withProtoKey(nested as object)));
    }
    check(withValue(base, ['extra'], 'x'));
    for (const value of CANDIDATES) check(value);
    check(JSON.parse(`[${JSON.stringify(base)}]`));
    expect(refused).toBeGreaterThan(500);
  });
});

describe('checking calendar days', () => {
  it('agrees with the Date round trip on every month and day around the edges', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    for (const year of ['0000', '0004', '1900', '1999', '2000', '2023', '2024', '2100', '9999']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${year}-${two(month)}-${two(day)}`;
          expect(isDay(text), text).toBe(isDayByDate(text));
        }
      }
    }
    for (const odd of ['2020-1-01', '2020-01-1', '2020/01/01', '２０２０-01-01', '2020-0a-01', '', '+02020-01-01']) {
      expect(isDay(odd), odd).toBe(isDayByDate(odd));
    }
  });
});
