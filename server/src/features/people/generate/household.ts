/**
 * Households of 1-5 people at one address: a single adult, a couple (usually sharing a last name) with grown
 * children or other relatives, or unrelated housemates. Members share the address, the home's IPs, any
 * landline, the home itself and, when the household moved together, a previous address.
 */

import type { IpRecord } from '../record';
import { type Address, newAddress } from './addresses';
import { isoDay, LAST_DAY } from './dates';
import type { Gender } from './names';
import { lastName } from './names';
import {
  buildPerson,
  type GeneratedPerson,
  type GraphKeys,
  type HouseholdShared,
  landline,
  type MemberSpec,
} from './person';
import { pickCity, pickCityIn, stateInfo } from './places';
import { type Rng, type SeedKey, Weighted } from './prng';
import { homeType, propertyValue, wealthLevel } from './profile';

export interface Household {
  index: number;
  address: Address;
  people: GeneratedPerson[];
}

const SIZES = new Weighted([1, 2, 3, 4, 5], [28, 34, 16, 13, 9]);
/** Adult ages, roughly as the US adult population is spread. */
const AGE_BANDS = new Weighted(
  [
    [18, 24],
    [25, 34],
    [35, 44],
    [45, 54],
    [55, 64],
    [65, 74],
    [75, 90],
  ] as const,
  [12, 18, 17, 16, 16, 13, 8],
);

function adultAge(rng: Rng): number {
  const [lo, hi] = AGE_BANDS.pick(rng);
  return rng.between(lo, hi);
}

function gender(rng: Rng): Gender {
  const roll = rng.below(100);
  return roll < 50 ? 'F' : roll < 98 ? 'M' : '';
}

const other = (g: Gender): Gender => (g === 'F' ? 'M' : g === 'M' ? 'F' : '');

/** Years since moving in: mostly a few, some for decades. */
function yearsAtAddress(rng: Rng, youngestAdultAge: number): number {
  const years = rng.between(0, 5) + (rng.chance(0.5) ? rng.between(0, 20) : 0);
  return Math.min(years, Math.max(0, youngestAdultAge - 18));
}

/** The people of one household, without ids yet decided beyond `firstId`. */
function members(rng: Rng, size: number, firstId: number): MemberSpec[] {
  const family = lastName(rng);
  const specs: MemberSpec[] = [];
  const add = (spec: Omit<MemberSpec, 'id'>) => specs.push({ id: firstId + specs.length, ...spec });
  if (size === 1) {
    add({
      gender: gender(rng),
      age: adultAge(rng),
      lastName: family,
      married: false,
      movedWithHousehold: true,
      owner: true,
    });
    return specs;
  }
  if (rng.chance(0.15)) {
    for (let i = 0; i < size; i++) {
      const age = rng.between(19, 45);
      add({
        gender: gender(rng),
        age,
        lastName: lastName(rng),
        married: false,
        movedWithHousehold: i === 0,
        owner: i === 0,
      });
    }
    return specs;
  }
  const first = gender(rng);
  const age = Math.max(22, adultAge(rng));
  add({ gender: first, age, lastName: family, married: true, movedWithHousehold: true, owner: true });
  add({
    gender: rng.chance(0.92) ? other(first) : first,
    age: Math.max(20, age + rng.between(-6, 6)),
    lastName: rng.chance(0.85) ? family : lastName(rng),
    married: true,
    movedWithHousehold: rng.chance(0.85),
    owner: true,
  });
  while (specs.length < size) {
    const child = age >= 40;
    add({
      gender: gender(rng),
      age: child ? rng.between(18, Math.min(35, age - 20)) : adultAge(rng),
      lastName: rng.chance(0.95) ? family : lastName(rng),
      married: false,
      movedWithHousehold: rng.chance(0.5),
      owner: false,
    });
  }
  return specs;
}

/**
 * Household number `index`: up to `maxSize` people with ids from `firstId`. Its own random stream, so the same
 * seed and index give the same household; the unique keys depend on the households before it.
 */
export function buildHousehold(
  seed: SeedKey,
  keys: GraphKeys,
  index: number,
  firstId: number,
  maxSize: number,
): Household {
  const rng = seed.rng('household', index);
  const size = Math.min(SIZES.pick(rng), maxSize);
  const city = pickCity(rng);
  const address = newAddress(rng, city, { unitShare: 0.2 });
  const specs = members(rng, size, firstId);
  const youngest = Math.min(...specs.filter((s) => s.owner || specs.length === 1).map((s) => s.age));
  const years = yearsAtAddress(rng, youngest);
  const movedIn = Math.max(0, LAST_DAY - years * 365 - rng.below(365));
  const owner = rng.chance(address.unit ? 0.35 : 0.72);
  const wealth = Math.min(8, wealthLevel(rng) + (owner ? 1 : 0));
  const homeIps: IpRecord[] = [];
  const homeIp = (ip: string) => {
    const first = rng.between(movedIn, LAST_DAY);
    const last = rng.chance(0.7) ? LAST_DAY : rng.between(first, LAST_DAY);
    homeIps.push({ ip, firstSeen: isoDay(first), lastSeen: isoDay(last) });
  };
  if (rng.chance(0.85)) {
    homeIp(keys.ips.v4Address());
    if (rng.chance(0.3)) homeIp(keys.ips.v6Address(rng));
  }
  const previous = rng.chance(0.35)
    ? newAddress(rng, pickCityIn(rng, city.state, rng.chance(0.4)), { unitShare: 0.3 })
    : null;
  const homeKind = homeType(rng, address.unit !== '');
  const shared: HouseholdShared = {
    city,
    address,
    previous,
    movedIn,
    owner,
    wealth,
    homeIps,
    landline: rng.chance(0.3) ? landline(rng, keys.phones.take(city.npa), movedIn) : null,
    home: owner ? { type: homeKind, value: propertyValue(rng, stateInfo(city.state).medianHome, homeKind) } : null,
    size,
    children: specs.filter((s) => !s.married && !s.owner).length,
  };
  const people = specs.map((spec) => buildPerson(rng, keys, shared, { ...spec, owner: owner && spec.owner }));
  return { index, address, people };
}
