/**
 * Street addresses: a house number, sometimes a directional, a street name and suffix, sometimes a unit. The
 * parts are kept so queries can change one of them (spell the suffix out, drop the unit) and still say exactly
 * what changed. Graph addresses use house numbers 1-9999; negative queries use five-digit ones, so a made-up
 * person's address is certain not to be anyone's in the graph.
 */
import { suffixFullName } from '../streets';
import { type City, pickZip } from './places';
import { type Rng, Weighted } from './prng';

export interface Address {
  number: number;
  /** 'N', 'S', 'E', 'W' or ''. */
  directional: string;
  /** The directional is written out ('North'). */
  directionalFull: boolean;
  name: string;
  /** Standard abbreviation in title case ('St', 'Ave'), or '' for a street without one ("Broadway"). */
  suffix: string;
  /** The suffix is written out ('Street'). */
  suffixFull: boolean;
  /** 'Apt 4B', 'Unit 12', '# 3', or ''. */
  unit: string;
  city: string;
  state: string;
  zip: string;
  zip4: string;
}

const NAMES = `
  Main, Oak, Pine, Maple, Cedar, Elm, Washington, Lake, Hill, Park, Walnut, Sunset, Lincoln, Jefferson, Madison,
  Franklin, Jackson, Highland, Church, Spring, Ridge, Meadow, Willow, Chestnut, Center, Mill, River, Forest,
  Cherry, Adams, Dogwood, Hickory, Magnolia, Birch, Poplar, Sycamore, Laurel, Valley, Lakeview, Woodland,
  Prospect, Broad, Market, Union, Liberty, Front, Water, School, Green, College, Railroad, Bridge, Cherry Hill,
  Country Club, King, Fairview, Pleasant, Grove, Orchard, Vine, Locust, Holly, Aspen, Sequoia, Juniper, Hawthorn,
  Cypress, Palm, Olive, Peachtree, Mulberry, Redwood, Spruce, Evergreen, Heritage, Hillcrest, Riverside,
  Brookside, Meadowbrook, Stonegate, Foxhill, Deer Run, Eagle, Hawk, Quail, Canyon, Mesa, Vista, Summit,
  Sunrise, Mountain View, Ocean, Harbor, Bay, Shore, Pioneer, Frontier, Colonial, Victoria, Windsor, Cambridge,
  Oxford, Lexington, Concord, Kensington, Wilson, Monroe, Taylor, Grant, Hamilton, Kennedy, Roosevelt,
  Cleveland, Johnson, Martin Luther King Jr, Cesar Chavez, Old Mill, Fox Chase, Timber, Briarwood, Rolling Hills,
  Wildwood, Greenbrier, Silver Lake, Bluebird, Cardinal, Mockingbird, Rosewood, Ivy, Hollow Creek, Crestview
`
  .trim()
  .split(/\s*,\s*/);

/** Streets whose name has no suffix. */
const UNSUFFIXED = ['Broadway', 'Kingsway', 'Northgate', 'Southgate'];

const ORDINALS = [
  '1st',
  '2nd',
  '3rd',
  '4th',
  '5th',
  '6th',
  '7th',
  '8th',
  '9th',
  '10th',
  '11th',
  '12th',
  '14th',
  '15th',
];

/** Suffixes in title case with how often they end a street name. */
const SUFFIXES = Weighted.of<string>([
  ['St', 300],
  ['Ave', 200],
  ['Dr', 130],
  ['Rd', 120],
  ['Ln', 70],
  ['Ct', 55],
  ['Way', 40],
  ['Blvd', 30],
  ['Pl', 30],
  ['Cir', 25],
  ['Trl', 12],
  ['Ter', 10],
  ['Pkwy', 10],
  ['Loop', 5],
  ['Hwy', 5],
  ['Run', 4],
  ['Xing', 3],
  ['Cv', 3],
  ['Sq', 2],
  ['', 6],
]);

const DIRECTIONALS = ['N', 'S', 'E', 'W'];
const DIRECTIONAL_NAMES: Record<string, string> = { N: 'North', S: 'South', E: 'East', W: 'West' };

const DIGITS = Weighted.of<number>([
  [1, 5],
  [2, 15],
  [3, 40],
  [4, 40],
]);

function houseNumber(rng: Rng): number {
  const digits = DIGITS.pick(rng);
  return rng.between(digits === 1 ? 1 : 10 ** (digits - 1), 10 ** digits - 1);
}

function unit(rng: Rng): string {
  const roll = rng.below(100);
  const letter = 'ABCDEFGH'[rng.below(8)]!;
  const floor = rng.between(1, 12);
  if (roll < 45) return `Apt ${floor}${letter}`;
  if (roll < 70) return `Apt ${floor * 100 + rng.between(1, 24)}`;
  if (roll < 85) return `Unit ${rng.between(1, 40)}`;
  if (roll < 93) return `# ${rng.between(1, 30)}`;
  if (roll < 97) return `Ste ${rng.between(1, 9) * 100}`;
  return `Lot ${rng.between(1, 150)}`;
}

/** A new address in the city; `unitShare` of them have a unit; five-digit house numbers only when `absent`. */
export function newAddress(rng: Rng, city: City, options: { unitShare?: number; absent?: boolean } = {}): Address {
  const suffix = SUFFIXES.pick(rng);
  const name = !suffix ? rng.pick(UNSUFFIXED) : rng.chance(0.12) ? rng.pick(ORDINALS) : rng.pick(NAMES);
  const directional = rng.chance(0.12) ? rng.pick(DIRECTIONALS) : '';
  return {
    number: options.absent ? rng.between(10000, 29999) : houseNumber(rng),
    directional,
    directionalFull: directional !== '' && rng.chance(0.1),
    name,
    suffix,
    suffixFull: suffix !== '' && rng.chance(0.12),
    unit: rng.chance(options.unitShare ?? 0.2) ? unit(rng) : '',
    city: city.name,
    state: city.state,
    ...pickZip(rng, city),
  };
}

/** The suffix as written: 'St' or 'Street'. */
function suffixText(address: Address): string {
  if (!address.suffix) return '';
  return address.suffixFull ? suffixFullName(address.suffix)! : address.suffix;
}

/** The address line as the graph (or a query) writes it: "1234 N Oak St Apt 4B". */
export function addressLine(address: Address): string {
  const parts = [String(address.number)];
  if (address.directional) {
    parts.push(address.directionalFull ? DIRECTIONAL_NAMES[address.directional]! : address.directional);
  }
  parts.push(address.name);
  const suffix = suffixText(address);
  if (suffix) parts.push(suffix);
  if (address.unit) parts.push(address.unit);
  return parts.join(' ');
}
