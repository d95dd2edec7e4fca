/**
 * One person's identity record, given who they are in their household and what the household shares (address,
 * home IPs, landline, home). Also notes which keys belong to this person alone, for exact-key queries.
 */
import { nicknamesOf } from '../nicknames';
import type { IdentityRecord, IpRecord, PhoneRecord } from '../record';
import { PREVIOUS_ADDRESS_KEYS } from '../record';
import { type Address, addressLine } from './addresses';
import { type Employer, pickEmployer } from './companies';
import { AS_OF_YEAR, dayOfYear, innerSpan, isoDay, LAST_DAY, type Span } from './dates';
import type { EmailAddresses } from './emails';
import { type Gender, givenName, middleName, nameSuffix } from './names';
import type { DeviceIds, IpAddresses } from './network';
import { LANDLINE_CARRIERS, MOBILE_CARRIERS, type PhoneNumbers } from './phones';
import { AREA_CODES, type City, pickCityIn } from './places';
import { countsUpTo5, type Rng, Weighted } from './prng';
import { behaviors, demographics, finances } from './profile';
import type { Vehicles } from './vehicles';

/** The generators of keys that must be unique across the whole graph. */
export interface GraphKeys {
  emails: EmailAddresses;
  phones: PhoneNumbers;
  ips: IpAddresses;
  devices: DeviceIds;
  vehicles: Vehicles;
}

/** What the members of a household share. */
export interface HouseholdShared {
  city: City;
  address: Address;
  previous: Address | null;
  /** Day the household moved in. */
  movedIn: number;
  owner: boolean;
  wealth: number;
  homeIps: IpRecord[];
  landline: PhoneRecord | null;
  home: { type: string; value: number } | null;
  size: number;
  children: number;
}

/** Who this member is. */
export interface MemberSpec {
  id: number;
  gender: Gender;
  age: number;
  lastName: string;
  married: boolean;
  /** Lives at the household's previous address too (moved with it). */
  movedWithHousehold: boolean;
  /** Co-owns the home. */
  owner: boolean;
}

export interface GeneratedPerson {
  record: IdentityRecord;
  /** The formal given name; the record may carry a nickname instead. */
  formalFirst: string;
  address: Address;
  previous: Address | null;
  /** Keys that no one else in the graph has, by lookup kind. */
  own: { emails: string[]; phones: string[]; ips: string[]; devices: string[]; vins: string[] };
}

const EMAIL_COUNTS = countsUpTo5([8, 30, 30, 18, 9, 5]);
const PHONE_COUNTS = countsUpTo5([7, 38, 30, 14, 7, 4]);
const DEVICE_COUNTS = countsUpTo5([20, 40, 24, 9, 5, 2]);
const VEHICLE_COUNTS = countsUpTo5([25, 40, 22, 8, 3, 2]);
const PERSONAL_IP_COUNTS = new Weighted([0, 1, 2, 3], [40, 35, 18, 7]);

/** The person's own span: from adulthood (or 2000) to a recent day. */
function personSpan(rng: Rng, birthYear: number | null): Span {
  const adult = birthYear === null ? 0 : dayOfYear(birthYear + 18);
  const first = rng.between(adult, Math.max(adult, LAST_DAY - 60));
  const recent = rng.chance(0.8) ? rng.between(LAST_DAY - 365, LAST_DAY) : rng.between(first, LAST_DAY);
  return { first: Math.min(first, LAST_DAY), last: Math.max(first, recent) };
}

function employment(rng: Rng, age: number, span: Span) {
  const jobs: { employer: Employer; span: Span }[] = [];
  if (age >= 67 ? !rng.chance(0.15) : !rng.chance(0.72)) return jobs;
  const start = rng.between(span.first, span.last);
  if (rng.chance(0.35) && start > span.first) {
    jobs.push({ employer: pickEmployer(rng), span: innerSpan(rng, { first: span.first, last: start }, 0) });
  }
  jobs.push({ employer: pickEmployer(rng), span: { first: start, last: span.last } });
  return jobs;
}

export function buildPerson(rng: Rng, keys: GraphKeys, shared: HouseholdShared, spec: MemberSpec): GeneratedPerson {
  const formalFirst = givenName(rng, spec.gender);
  const nicknames = nicknamesOf(formalFirst);
  const firstName = nicknames.length > 0 && rng.chance(0.08) ? rng.pick(nicknames) : formalFirst;
  const middle = middleName(rng, spec.gender, formalFirst);
  const birthYear = rng.chance(0.04) ? null : AS_OF_YEAR - spec.age - rng.below(2);
  const span = personSpan(rng, birthYear);
  // explicit properties rather than spreads: objects of one shape stringify much faster
  const within = (recentShare = 0.6) => innerSpan(rng, span, recentShare);
  const own: GeneratedPerson['own'] = { emails: [], phones: [], ips: [], devices: [], vins: [] };
  const alone = shared.size === 1;

  const jobs = employment(rng, spec.age, span);
  const companies = jobs.map(({ employer, span: s }) => ({
    name: employer.name,
    domain: employer.domain,
    title: employer.title,
    firstSeen: isoDay(s.first),
    lastSeen: isoDay(s.last),
  }));

  const emailName = {
    first: nicknames.length > 0 && rng.chance(0.25) ? rng.pick(nicknames) : firstName,
    middle,
    last: spec.lastName,
  };
  const emailCount = EMAIL_COUNTS.pick(rng);
  const currentJob = jobs.at(-1);
  const emails = Array.from({ length: emailCount }, (_, i) => {
    const address =
      i === 0 && currentJob && rng.chance(0.3)
        ? keys.emails.work(rng, emailName, currentJob.employer.domain)
        : keys.emails.personal(rng, emailName);
    own.emails.push(address);
    const s = within();
    return { address, firstSeen: isoDay(s.first), lastSeen: isoDay(s.last) };
  });

  const phoneCount = PHONE_COUNTS.pick(rng);
  const phones: PhoneRecord[] = [];
  if (phoneCount > 0 && shared.landline) {
    phones.push(shared.landline);
    if (alone) own.phones.push(shared.landline.number);
  }
  while (phones.length < phoneCount) {
    const roll = rng.below(10);
    const npa = roll < 8 ? shared.city.npa : roll < 9 ? pickCityIn(rng, shared.city.state).npa : rng.pick(AREA_CODES);
    const number = keys.phones.take(npa);
    own.phones.push(number);
    const s = within(0.8);
    phones.push({
      number,
      type: 'mobile',
      carrier: MOBILE_CARRIERS.pick(rng),
      doNotCall: rng.chance(0.3),
      firstSeen: isoDay(s.first),
      lastSeen: isoDay(s.last),
    });
  }

  const ips: IpRecord[] = [...shared.homeIps];
  if (alone) own.ips.push(...shared.homeIps.map((r) => r.ip));
  const personalIps = Math.min(PERSONAL_IP_COUNTS.pick(rng), 5 - ips.length);
  for (let i = 0; i < personalIps; i++) {
    const ip = rng.chance(0.85) ? keys.ips.v4Address() : keys.ips.v6Address(rng);
    own.ips.push(ip);
    const s = within(0.3);
    ips.push({ ip, firstSeen: isoDay(s.first), lastSeen: isoDay(s.last) });
  }

  const apple = rng.chance(0.5);
  const devices = Array.from({ length: DEVICE_COUNTS.pick(rng) }, () => {
    const deviceId = keys.devices.take(rng);
    own.devices.push(deviceId);
    const type: 'idfa' | 'aaid' = apple === rng.chance(0.9) ? 'idfa' : 'aaid';
    const s = within(0.5);
    return { deviceId, type, firstSeen: isoDay(s.first), lastSeen: isoDay(s.last) };
  });

  const vehicles = Array.from({ length: VEHICLE_COUNTS.pick(rng) }, () => {
    const v = keys.vehicles.take(rng);
    own.vins.push(v.vin);
    const s = within(0.5);
    return {
      vin: v.vin,
      year: v.year,
      make: v.make,
      model: v.model,
      firstSeen: isoDay(s.first),
      lastSeen: isoDay(s.last),
    };
  });

  const properties: IdentityRecord['properties'] = [];
  if (shared.home && spec.owner) {
    const movedIn = Math.min(Math.max(shared.movedIn, span.first), span.last);
    properties.push({
      type: shared.home.type,
      value: shared.home.value,
      ownerOccupied: true,
      firstSeen: isoDay(movedIn),
      lastSeen: isoDay(span.last),
    });
  }
  if (spec.owner && rng.chance(0.1)) {
    const type = rng.pick(['Single Family Residence', 'Condominium', 'Vacant Land', 'Multi-Family']);
    const value = shared.home ? Math.round((shared.home.value * (0.3 + rng.below(100) / 100)) / 1000) * 1000 : 90_000;
    const s = within(0.7);
    properties.push({ type, value, ownerOccupied: false, firstSeen: isoDay(s.first), lastSeen: isoDay(s.last) });
  }

  const data = demographics(rng, {
    married: spec.married,
    age: spec.age,
    owner: shared.owner,
    yearsAtAddress: Math.floor((LAST_DAY - shared.movedIn) / 365),
    children: shared.children,
  });
  const previous = shared.previous && spec.movedWithHousehold ? shared.previous : null;
  if (previous) {
    data[PREVIOUS_ADDRESS_KEYS.address] = addressLine(previous);
    data[PREVIOUS_ADDRESS_KEYS.city] = previous.city;
    data[PREVIOUS_ADDRESS_KEYS.state] = previous.state;
    data[PREVIOUS_ADDRESS_KEYS.zip] = previous.zip;
  }

  const record: IdentityRecord = {
    id: spec.id,
    firstName,
    middleName: middle,
    lastName: spec.lastName,
    suffix: nameSuffix(rng, spec.gender),
    gender: spec.gender,
    birthYear,
    address: addressLine(shared.address),
    city: shared.address.city,
    state: shared.address.state,
    zip: shared.address.zip,
    zip4: rng.chance(0.85) ? shared.address.zip4 : '',
    firstSeen: isoDay(span.first),
    lastSeen: isoDay(span.last),
    emails,
    phones,
    ips,
    devices,
    vehicles,
    properties,
    finances: rng.chance(0.8) ? finances(rng, shared.wealth, spec.age) : null,
    companies,
    behaviors: behaviors(rng).map((b) => {
      const s = within(0.5);
      return { category: b.category, name: b.name, firstSeen: isoDay(s.first), lastSeen: isoDay(s.last) };
    }),
    data,
  };
  widenToRecords(record);
  return { record, formalFirst, address: shared.address, previous, own };
}

/** The person was first and last seen when any of their records was (ISO dates compare as text). */
function widenToRecords(record: IdentityRecord): void {
  const lists = [
    record.emails,
    record.phones,
    record.ips,
    record.devices,
    record.vehicles,
    record.properties,
    record.companies,
    record.behaviors,
  ];
  for (const list of lists) {
    for (const item of list) {
      if (item.firstSeen < record.firstSeen) record.firstSeen = item.firstSeen;
      if (item.lastSeen > record.lastSeen) record.lastSeen = item.lastSeen;
    }
  }
}

/** A household landline: carrier, do-not-call, seen from the move-in day. */
export function landline(rng: Rng, number: string, movedIn: number): PhoneRecord {
  return {
    number,
    type: 'landline',
    carrier: LANDLINE_CARRIERS.pick(rng),
    doNotCall: rng.chance(0.45),
    firstSeen: isoDay(movedIn),
    lastSeen: isoDay(rng.chance(0.7) ? LAST_DAY : rng.between(movedIn, LAST_DAY)),
  };
}
