/**
 * The marketing side of a person: finances as the ranges data vendors sell, interests and purchase behaviors,
 * and demographic attributes. Values are plain strings so they load into person_data and template output as is.
 */
import { CREDIT_BANDS, INCOME_BANDS, NET_WORTH_BANDS } from '@tessera/common/segments';
import { type Rng, Weighted } from './prng';

// The ranges live once in common (the segments' filters choose among them).
export const INCOME_RANGES = INCOME_BANDS;
export const NET_WORTH_RANGES = NET_WORTH_BANDS;
export const CREDIT_RANGES = CREDIT_BANDS;

const clamp = (n: number, max: number) => Math.max(0, Math.min(max, n));

/**
 * Income, net worth and credit that go together: a household's wealth level (0-8) shifted a little per person,
 * net worth growing with age.
 */
export function finances(rng: Rng, wealth: number, age: number | null) {
  const income = clamp(wealth + rng.between(-1, 1), INCOME_RANGES.length - 1);
  const ageBoost = age === null ? 0 : age < 30 ? -2 : age < 45 ? 0 : age < 65 ? 1 : 2;
  const netWorth = clamp(income + ageBoost + rng.between(-2, 1), NET_WORTH_RANGES.length - 1);
  const credit = clamp(Math.floor((income + ageBoost) / 2) + rng.between(-1, 1), CREDIT_RANGES.length - 1);
  return { income: INCOME_RANGES[income]!, netWorth: NET_WORTH_RANGES[netWorth]!, credit: CREDIT_RANGES[credit]! };
}

/** A household's wealth level 0-8, centred on the middle ranges. */
export function wealthLevel(rng: Rng): number {
  return Math.min(8, Math.floor((rng.below(9) + rng.below(9) + rng.below(9)) / 3) + rng.below(2));
}

const BEHAVIORS: Record<string, readonly string[]> = {
  Interests: [
    'Cooking',
    'Gardening',
    'Golf',
    'Fishing',
    'Hunting',
    'Photography',
    'Home Improvement',
    'Crafts',
    'Reading',
    'Fitness',
    'Running',
    'Cycling',
    'Camping',
    'Gaming',
    'Music',
    'Pets: Dogs',
    'Pets: Cats',
    'Wine',
    'Boating',
    'Collectibles',
  ],
  Purchases: [
    'Online Shopping',
    'Outdoor Gear',
    'Luxury Goods',
    'Home Decor',
    'Baby Products',
    'Beauty Products',
    'Consumer Electronics',
    'Sporting Goods',
    'Organic Food',
    'Books',
    'Apparel',
    'Pet Supplies',
  ],
  Media: [
    'Streaming Video',
    'Podcasts',
    'Sports: Football',
    'Sports: Baseball',
    'Sports: Basketball',
    'News',
    'Country Music',
    'Talk Radio',
    'Social Media',
  ],
  Travel: ['Cruises', 'International Travel', 'Domestic Travel', 'Frequent Flyer', 'RV Travel', 'Theme Parks'],
  Finance: ['Investor', 'Credit Card User', 'Mortgage Shopper', 'Retirement Planning', 'Insurance Shopper'],
  Automotive: ['New Vehicle Intender', 'Used Vehicle Intender', 'Auto Parts', 'Electric Vehicle Interest'],
  Donations: ['Charitable Giving', 'Animal Welfare', 'Environmental Causes', 'Health Causes', 'Veterans Causes'],
};

export const BEHAVIOR_CATEGORIES = Object.keys(BEHAVIORS);

const BEHAVIOR_COUNTS = new Weighted([0, 1, 2, 3, 4, 5, 6, 7, 8], [15, 10, 15, 18, 15, 10, 8, 5, 4]);

/** 0-8 distinct (category, name) pairs. */
export function behaviors(rng: Rng): { category: string; name: string }[] {
  const count = BEHAVIOR_COUNTS.pick(rng);
  const out: { category: string; name: string }[] = [];
  const chosen = new Set<string>();
  while (out.length < count) {
    const category = rng.pick(BEHAVIOR_CATEGORIES);
    const name = rng.pick(BEHAVIORS[category]!);
    const key = `${category}\u0000${name}`;
    if (chosen.has(key)) continue;
    chosen.add(key);
    out.push({ category, name });
  }
  return out;
}

export const PROPERTY_TYPES = [
  'Single Family Residence',
  'Condominium',
  'Townhouse',
  'Multi-Family',
  'Mobile Home',
  'Vacant Land',
] as const;

/** The type of a household's home, by whether it has a unit number. */
export function homeType(rng: Rng, hasUnit: boolean): string {
  if (hasUnit) return rng.chance(0.7) ? 'Condominium' : 'Multi-Family';
  const roll = rng.below(100);
  return roll < 78 ? 'Single Family Residence' : roll < 90 ? 'Townhouse' : roll < 96 ? 'Mobile Home' : 'Multi-Family';
}

/** A value in dollars near the state's median (thousands), rounded to $1,000. */
export function propertyValue(rng: Rng, medianThousands: number, type: string): number {
  const factor = type === 'Mobile Home' ? 0.25 : type === 'Vacant Land' ? 0.3 : type === 'Condominium' ? 0.8 : 1;
  // a spread from about 0.4x to 2.5x, most near 1x
  const spread = (40 + rng.below(60) + rng.below(60) + rng.below(90)) / 100;
  return Math.max(15, Math.round(medianThousands * factor * spread)) * 1000;
}

export const MARITAL_STATUSES = ['Single', 'Married', 'Divorced', 'Widowed'] as const;
export const EDUCATION_LEVELS = [
  'Less than High School',
  'High School',
  'Some College',
  "Bachelor's Degree",
  'Graduate Degree',
] as const;

const LANGUAGES = Weighted.of<string>([
  ['English', 80],
  ['Spanish', 13],
  ['Chinese', 1],
  ['Vietnamese', 1],
  ['Tagalog', 1],
  ['Korean', 1],
  ['French', 1],
  ['German', 1],
  ['Arabic', 1],
]);

/** Demographic attributes, each present with its own likelihood; keys in a fixed order. */
export function demographics(
  rng: Rng,
  facts: { married: boolean; age: number | null; owner: boolean; yearsAtAddress: number; children: number },
): Record<string, string> {
  const data: Record<string, string> = {};
  if (rng.chance(0.8)) {
    const old = facts.age !== null && facts.age > 70;
    data.maritalStatus = facts.married
      ? 'Married'
      : old && rng.chance(0.4)
        ? 'Widowed'
        : rng.chance(0.2)
          ? 'Divorced'
          : 'Single';
  }
  if (rng.chance(0.7)) data.education = EDUCATION_LEVELS[Math.min(4, rng.below(3) + rng.below(3))]!;
  if (rng.chance(0.85)) data.homeOwner = facts.owner ? 'Owner' : 'Renter';
  if (rng.chance(0.75)) data.lengthOfResidence = String(facts.yearsAtAddress);
  if (rng.chance(0.6)) data.children = String(facts.children);
  if (rng.chance(0.5)) data.language = LANGUAGES.pick(rng);
  if (rng.chance(0.3)) data.veteran = rng.chance(0.12) ? 'Yes' : 'No';
  if (rng.chance(0.4)) data.pets = rng.pick(['Dog', 'Cat', 'Dog, Cat', 'None', 'None']);
  return data;
}
