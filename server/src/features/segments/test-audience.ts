/**
 * Test people for segments: a population varied on every attribute a segment filters on, all working at one company
 * no other test uses (so a test can scope its segment to them), and the direct SQL count of a segment over the graph
 * tables themselves: the reference segment_attributes must agree with.
 */
import { randomUUID } from 'node:crypto';
import { CREDIT_BANDS, INCOME_BANDS, NET_WORTH_BANDS, type SegmentFilters } from '@tessera/common/segments';
import type { Database } from '../../db/client';
import { load, person, uniqueDevice, uniqueEmail, uniquePhone, uniqueVin } from '../identities/test-people';
import type { IdentityRecord } from '../people/record';

const seen = { firstSeen: '2024-01-01', lastSeen: '2025-06-01' };
const BEHAVIORS = [
  { category: 'Interests', name: 'Golf' },
  { category: 'Travel', name: 'Cruises' },
  { category: 'Interests', name: 'Reading' },
  { category: 'Finance', name: 'Investor' },
];

/** The i-th person of a population working at `company`. */
export function member(i: number, company: string): IdentityRecord {
  return person({
    state: ['OH', 'CA', 'TX'][i % 3]!,
    zip: `${['43', '90', '75'][i % 3]}${String(100 + ((i * 37) % 900)).padStart(3, '0')}`,
    birthYear: 1950 + ((i * 7) % 55),
    gender: (['F', 'M', 'F', ''] as const)[i % 4]!,
    finances:
      i % 10 === 9
        ? null
        : { income: INCOME_BANDS[i % 9]!, netWorth: NET_WORTH_BANDS[(i * 2) % 9]!, credit: CREDIT_BANDS[i % 5]! },
    properties: i % 3 === 0 ? [{ type: 'Single Family Residence', value: 200000, ownerOccupied: true, ...seen }] : [],
    data: i % 5 === 1 ? { homeOwner: 'Owner' } : {},
    emails: i % 4 === 0 ? [] : [{ address: uniqueEmail(), ...seen }],
    phones: i % 3 === 1 ? [] : [{ number: uniquePhone(), type: 'mobile', carrier: 'C', doNotCall: false, ...seen }],
    devices: i % 2 === 0 ? [] : [{ deviceId: uniqueDevice(), type: 'idfa', ...seen }],
    vehicles: i % 5 < 2 ? [{ vin: uniqueVin(), year: 2015, make: 'Honda', model: 'Accord', ...seen }] : [],
    behaviors: BEHAVIORS.filter((_, b) => (i >> b) & 1).map((b) => ({ ...b, ...seen })),
    companies: [
      { name: company, domain: 'example.com', title: 'Engineer', ...seen },
      ...(i % 4 === 0 ? [{ name: `Other ${i % 3}`, domain: 'other.example', title: 'Clerk', ...seen }] : []),
    ],
  });
}

/** `size` people working at a company of their own, loaded; its name and them. */
export async function loadAudience(database: Database, size = 48) {
  const company = `Segment Test ${randomUUID()}`;
  const people = Array.from({ length: size }, (_, i) => member(i, company));
  await load(database, ...people);
  return { company, people };
}

const EMAIL_SUPPRESSED = `exists (select 1 from suppressions s where (s.kind, s.value) in
  (('email', e.address), ('md5', e.md5), ('sha256', e.sha256)))`;

/** How many people of the graph the filters select, counted from the graph tables directly. */
export async function directCount(database: Database, f: SegmentFilters, today = new Date()): Promise<number> {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const c: string[] = [`not exists (select 1 from suppressions s where s.kind = 'identity' and s.value = p.id::text)`];
  if (f.states) c.push(`p.state = any(${p(f.states)}::text[])`);
  if (f.zipPrefixes) c.push(`p.zip like any(${p(f.zipPrefixes.map((z) => `${z}%`))}::text[])`);
  if (f.ageMin !== undefined) c.push(`${today.getUTCFullYear()} - p.birth_year >= ${p(f.ageMin)}::int`);
  if (f.ageMax !== undefined) c.push(`${today.getUTCFullYear()} - p.birth_year <= ${p(f.ageMax)}::int`);
  if (f.genders) c.push(`p.gender = any(${p(f.genders)}::text[])`);
  const finance = (column: string, values?: string[]) => {
    if (values) {
      c.push(`exists (select 1 from person_finances x where x.identity_id = p.id
        and x.${column} = any(${p(values)}::text[]))`);
    }
  };
  finance('income', f.incomes);
  finance('net_worth', f.netWorths);
  finance('credit', f.credits);
  const flag = (value: boolean | undefined, holds: string) => {
    if (value !== undefined) c.push(value ? holds : `not ${holds}`);
  };
  flag(
    f.homeOwner,
    `(exists (select 1 from person_properties r where r.identity_id = p.id and r.owner_occupied)
      or exists (select 1 from person_data k where k.identity_id = p.id and k.key = 'homeOwner' and k.value = 'Owner'))`,
  );
  flag(f.hasEmail, `exists (select 1 from person_emails e where e.identity_id = p.id and not ${EMAIL_SUPPRESSED})`);
  flag(
    f.hasPhone,
    `exists (select 1 from person_phones f where f.identity_id = p.id and not exists (select 1 from suppressions s
      where s.kind = 'phone' and s.value = f.number))`,
  );
  flag(f.hasDevice, 'exists (select 1 from person_devices d where d.identity_id = p.id)');
  flag(f.hasVehicle, 'exists (select 1 from person_vehicles v where v.identity_id = p.id)');
  if (f.behaviors) {
    const any = f.behaviors.map(
      (b) => `(b.category = ${p(b.category)}::text${b.name ? ` and b.name = ${p(b.name)}::text` : ''})`,
    );
    c.push(`exists (select 1 from person_behaviors b where b.identity_id = p.id and (${any.join(' or ')}))`);
  }
  if (f.companies) {
    c.push(`exists (select 1 from person_companies m where m.identity_id = p.id
      and lower(m.name) = any(${p(f.companies.map((n) => n.toLowerCase()))}::text[]))`);
  }
  const [row] = await database.query<{ count: number }>(
    `select count(*)::int as count from people p where ${c.join(' and ')}`,
    params,
  );
  return row!.count;
}
