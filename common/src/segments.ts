/**
 * Audience segments (issue 19, decision 0035): a saved audience definition over the identity graph. Filters are
 * combined with AND, the values within one filter with OR; a filter left out (or empty) does not narrow. The
 * limits, choices and messages live here once: the server reads bodies with readSegmentFilters, and the builder
 * page checks with the same function before it asks for a count.
 */
import { findState } from './states';

/** Income, net worth and credit as the graph holds them (the ranges data vendors sell). */
export const INCOME_BANDS = [
  'Under $15K',
  '$15K-$25K',
  '$25K-$35K',
  '$35K-$50K',
  '$50K-$75K',
  '$75K-$100K',
  '$100K-$150K',
  '$150K-$250K',
  '$250K+',
] as const;
export const NET_WORTH_BANDS = [
  'Less than $1',
  '$1-$25K',
  '$25K-$50K',
  '$50K-$100K',
  '$100K-$250K',
  '$250K-$500K',
  '$500K-$1M',
  '$1M-$2.5M',
  '$2.5M+',
] as const;
export const CREDIT_BANDS = [
  'Poor (300-579)',
  'Fair (580-669)',
  'Good (670-739)',
  'Very Good (740-799)',
  'Excellent (800-850)',
] as const;
export const GENDERS = [
  { value: 'F', label: 'Female' },
  { value: 'M', label: 'Male' },
] as const;
/** Behavior categories the builder offers; a behavior's name is free text (any name within the category). */
export const BEHAVIOR_CATEGORIES = [
  'Interests',
  'Purchases',
  'Media',
  'Travel',
  'Finance',
  'Automotive',
  'Donations',
] as const;

export const SEGMENT_LIMITS = {
  nameMax: 100,
  /** Values in one filter. */
  valuesMax: 100,
  textMax: 100,
  ageMin: 0,
  ageMax: 120,
  /** Members shown by a preview. */
  preview: 20,
  /** People read, shaped and written at a time by an export. */
  exportBatch: 500,
  /** Organizations a segment is assigned to. */
  organizationsMax: 1000,
} as const;

/** Milliseconds the builder waits after a change before it asks for the size (spec §9 debounce). */
export const SEGMENT_COUNT_DEBOUNCE_MS = 250;

/** Usage path of an export (metered and priced per identity like a lookup). */
export const SEGMENT_USAGE_PATH = '/segments';

export interface BehaviorFilter {
  category: string;
  /** Empty: any behavior of the category. */
  name?: string;
}

export interface SegmentFilters {
  /** State abbreviations (spec §3 state selector). */
  states?: string[];
  /** 1 to 5 digits each; a person's ZIP starts with one of them. */
  zipPrefixes?: string[];
  /** Age in whole years this calendar year (from the birth year), both ends included. */
  ageMin?: number;
  ageMax?: number;
  genders?: string[];
  incomes?: string[];
  netWorths?: string[];
  credits?: string[];
  homeOwner?: boolean;
  hasEmail?: boolean;
  hasPhone?: boolean;
  hasDevice?: boolean;
  hasVehicle?: boolean;
  behaviors?: BehaviorFilter[];
  /** Company names, matched whole, any case. */
  companies?: string[];
}

export const FLAG_FILTERS = ['homeOwner', 'hasEmail', 'hasPhone', 'hasDevice', 'hasVehicle'] as const;
export type FlagFilter = (typeof FLAG_FILTERS)[number];
/** Each yes/no attribute's bit in segment_attributes.flags (migration 0021 sets them in this order). */
export const SEGMENT_FLAG_BITS: Record<FlagFilter, number> = {
  homeOwner: 1,
  hasEmail: 2,
  hasPhone: 4,
  hasDevice: 8,
  hasVehicle: 16,
};
export const FLAG_LABELS: Record<FlagFilter, string> = {
  homeOwner: 'Home owner',
  hasEmail: 'Has e-mail',
  hasPhone: 'Has phone',
  hasDevice: 'Has device',
  hasVehicle: 'Has vehicle',
};

export const SEGMENT_MESSAGES = {
  name: 'Please provide a name.',
  nameLength: `Please provide a name of at most ${SEGMENT_LIMITS.nameMax} characters.`,
  filters: 'Please send filters as an object.',
  unknown: (key: string) => `There is no filter named ${key}.`,
  list: (label: string) => `Please give ${label} as a list of at most ${SEGMENT_LIMITS.valuesMax} values.`,
  state: 'Please select a state.',
  zipPrefix: 'Please provide 1 to 5 digits of a zip code.',
  age: `Please provide an integer from ${SEGMENT_LIMITS.ageMin} to ${SEGMENT_LIMITS.ageMax}.`,
  ageOrder: 'The lowest age must not be above the highest.',
  choice: (label: string, value: string) => `${JSON.stringify(value)} is not a ${label}.`,
  text: (label: string) => `Please provide each ${label} as text of 1 to ${SEGMENT_LIMITS.textMax} characters.`,
  flag: (label: string) => `Please give ${label} as true or false.`,
  behavior: 'Please give each behavior as a category and an optional name.',
  organizations: `Please give organizationIds as a list of at most ${SEGMENT_LIMITS.organizationsMax} organization ids.`,
  unknownOrganization: (id: number) => `There is no organization ${id}.`,
  template: 'Please provide a template id.',
  notFound: 'There is no such segment.',
  forbidden: 'Only System Administrators can build and change segments.',
  notAssigned: 'This segment is not available to your organization.',
} as const;

export interface FilterProblem {
  path: string;
  message: string;
}

type Read<T> = { value: T; problems: FilterProblem[] };

function readList(
  raw: unknown,
  key: string,
  label: string,
  one: (v: unknown) => string | null,
  problems: FilterProblem[],
): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length > SEGMENT_LIMITS.valuesMax) {
    problems.push({ path: `filters.${key}`, message: SEGMENT_MESSAGES.list(label) });
    return undefined;
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    const problem = one(v);
    if (problem) problems.push({ path: `filters.${key}.${i}`, message: problem });
    else out.push(String(v).trim());
  });
  return out.length > 0 ? [...new Set(out)] : undefined;
}

const isText = (v: unknown) => typeof v === 'string' && v.trim().length > 0 && v.length <= SEGMENT_LIMITS.textMax;
const choiceOf = (choices: readonly string[], label: string) => (v: unknown) =>
  typeof v === 'string' && choices.includes(v) ? null : SEGMENT_MESSAGES.choice(label, String(v));

function readAge(raw: unknown, key: string, problems: FilterProblem[]): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < SEGMENT_LIMITS.ageMin || n > SEGMENT_LIMITS.ageMax) {
    problems.push({ path: `filters.${key}`, message: SEGMENT_MESSAGES.age });
    return undefined;
  }
  return n;
}

function readBehaviors(raw: unknown, problems: FilterProblem[]): BehaviorFilter[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length > SEGMENT_LIMITS.valuesMax) {
    problems.push({ path: 'filters.behaviors', message: SEGMENT_MESSAGES.list('behaviors') });
    return undefined;
  }
  const out: BehaviorFilter[] = [];
  raw.forEach((v, i) => {
    const b = v as Partial<BehaviorFilter> | null;
    const named = b?.name === undefined || b.name === '' || isText(b.name);
    if (!b || typeof b !== 'object' || !isText(b.category) || !named) {
      problems.push({ path: `filters.behaviors.${i}`, message: SEGMENT_MESSAGES.behavior });
      return;
    }
    const name = b.name?.trim();
    out.push(name ? { category: b.category!.trim(), name } : { category: b.category!.trim() });
  });
  return out.length > 0 ? out : undefined;
}

/** The filters a body gives, or the problems with them, each at its path (`filters.states.0`). */
export function readSegmentFilters(raw: unknown): Read<SegmentFilters> {
  const problems: FilterProblem[] = [];
  if (raw === undefined || raw === null) return { value: {}, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { value: {}, problems: [{ path: 'filters', message: SEGMENT_MESSAGES.filters }] };
  }
  const r = raw as Record<string, unknown>;
  const known = new Set([
    'states',
    'zipPrefixes',
    'ageMin',
    'ageMax',
    'genders',
    'incomes',
    'netWorths',
    'credits',
    'behaviors',
    'companies',
    ...FLAG_FILTERS,
  ]);
  for (const key of Object.keys(r)) {
    if (!known.has(key)) problems.push({ path: `filters.${key}`, message: SEGMENT_MESSAGES.unknown(key) });
  }
  const f: SegmentFilters = {
    states: readList(
      r.states,
      'states',
      'states',
      (v) => (typeof v === 'string' && findState(v)?.abbreviation === v ? null : SEGMENT_MESSAGES.state),
      problems,
    ),
    zipPrefixes: readList(
      r.zipPrefixes,
      'zipPrefixes',
      'zip prefixes',
      (v) => (typeof v === 'string' && /^\d{1,5}$/.test(v) ? null : SEGMENT_MESSAGES.zipPrefix),
      problems,
    ),
    ageMin: readAge(r.ageMin, 'ageMin', problems),
    ageMax: readAge(r.ageMax, 'ageMax', problems),
    genders: readList(
      r.genders,
      'genders',
      'genders',
      choiceOf(
        GENDERS.map((g) => g.value),
        'gender',
      ),
      problems,
    ),
    incomes: readList(r.incomes, 'incomes', 'incomes', choiceOf(INCOME_BANDS, 'income band'), problems),
    netWorths: readList(r.netWorths, 'netWorths', 'net worths', choiceOf(NET_WORTH_BANDS, 'net worth band'), problems),
    credits: readList(r.credits, 'credits', 'credit bands', choiceOf(CREDIT_BANDS, 'credit band'), problems),
    behaviors: readBehaviors(r.behaviors, problems),
    companies: readList(
      r.companies,
      'companies',
      'companies',
      (v) => (isText(v) ? null : SEGMENT_MESSAGES.text('company')),
      problems,
    ),
  };
  for (const flag of FLAG_FILTERS) {
    const v = r[flag];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') problems.push({ path: `filters.${flag}`, message: SEGMENT_MESSAGES.flag(flag) });
    else f[flag] = v;
  }
  if (f.ageMin !== undefined && f.ageMax !== undefined && f.ageMin > f.ageMax) {
    problems.push({ path: 'filters.ageMax', message: SEGMENT_MESSAGES.ageOrder });
  }
  const value = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as SegmentFilters;
  return { value, problems };
}

/** How many filters narrow the audience (the builder shows it; none means everyone). */
export const activeFilterCount = (f: SegmentFilters) =>
  Object.values(f).filter((v) => v !== undefined && !(Array.isArray(v) && v.length === 0)).length;

export interface Segment {
  id: number;
  name: string;
  filters: SegmentFilters;
  /** Organizations whose users may list and export it (shown to super+ only). */
  organizationIds: number[];
  createdAt: string;
  updatedAt: string;
  deletedAt?: string | null;
}

/** One member in a preview: enough to recognise the audience, nothing more. */
export interface SegmentMember {
  id: number;
  firstName: string;
  lastName: string;
  gender: string;
  birthYear: number | null;
  city: string;
  state: string;
  zip: string;
}
