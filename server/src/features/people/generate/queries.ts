/**
 * The labelled query set: for an evenly spread sample of people, a noisy PII query and an exact-key query that
 * should find them, plus negative queries (made-up people and keys certain not to be in the graph) so precision
 * can be measured. Each sampled person has their own random stream, so the queries never change the graph.
 */
import { createHash } from 'node:crypto';
import {
  type ExactKind,
  type KeyNoise,
  type LabelledQuery,
  type NegativeKind,
  PII_NOISE,
  type PiiInput,
  type PiiNoise,
} from '../labelled-query';
import { type Address, newAddress } from './addresses';
import { absentEmail } from './emails';
import type { Household } from './household';
import { type Gender, givenName, lastName } from './names';
import { expandedIpv6 } from './network';
import { addNoise, applicable, type NoiseContext, type PiiDraft, recaseInput, renderPii } from './noise';
import type { GeneratedPerson, GraphKeys } from './person';
import { rawPhone } from './phones';
import { pickCity, pickCityIn } from './places';
import { type Rng, type SeedKey, Weighted } from './prng';

/** People sampled: about 1 % of the graph, at least 1,000 (or everyone), at most 50,000. */
export function sampleSize(identities: number): number {
  return Math.min(identities, 50_000, Math.max(1_000, Math.ceil(identities / 100)));
}

const NOISE_COUNTS = new Weighted([0, 1, 2, 3], [10, 55, 30, 5]);
const EXACT_WEIGHTS: Record<ExactKind, number> = {
  email: 20,
  md5: 8,
  sha256: 8,
  phone: 20,
  ip: 12,
  device: 12,
  vin: 10,
  id: 10,
};

const hex = (algorithm: 'md5' | 'sha256', value: string) => createHash(algorithm).update(value).digest('hex');

type Query = Omit<LabelledQuery, 'id'>;

export class QuerySet {
  readonly size: number;
  private absentIds = 0;

  constructor(
    private readonly seed: SeedKey,
    private readonly keys: GraphKeys,
    private readonly identities: number,
  ) {
    this.size = sampleSize(identities);
  }

  /** Systematic sampling: exactly `sampleSize` ids, spread evenly over 1..N. */
  sampled(id: number): boolean {
    return Math.floor((id * this.size) / this.identities) > Math.floor(((id - 1) * this.size) / this.identities);
  }

  /** The queries for one sampled person, in a fixed order. */
  forPerson(person: GeneratedPerson, household: Household): Query[] {
    const rng = this.seed.rng('queries', person.record.id);
    const out: Query[] = [this.pii(rng, person), this.exact(rng, person)];
    const roll = rng.below(100);
    if (roll < 8) out.push(this.stranger(rng));
    else if (roll < 12) out.push(this.neighbour(rng, household));
    else if (roll < 16) out.push(this.namesake(rng, person));
    if (rng.chance(0.06)) out.push(this.unknownKey(rng, person));
    out.push(...this.nationwide(person, household));
    return out;
  }

  /**
   * Nationwide PII queries (name and street line, no zip, city or state; decision 0027), from a stream of their own
   * so the other queries stay as they were: for half the sampled people a noisy one that should find them, and
   * negatives at the rates of the located ones.
   */
  private nationwide(person: GeneratedPerson, household: Household): Query[] {
    const rng = this.seed.rng('nationwide-queries', person.record.id);
    const out: Query[] = [];
    if (rng.chance(0.5)) out.push(this.pii(rng, person, true));
    const roll = rng.below(100);
    const place = (q: Query): Query => ({ ...q, input: withoutPlace(q.input as PiiInput) });
    if (roll < 8) out.push(place(this.stranger(rng)));
    else if (roll < 12) out.push(place(this.neighbour(rng, household)));
    else if (roll < 16) out.push(place(this.namesake(rng, person)));
    return out;
  }

  private pii(rng: Rng, person: GeneratedPerson, nationwide = false): Query {
    const r = person.record;
    // nationwide: no zip (so 'missingZip' never applies), and no city or state once rendered
    let draft: PiiDraft = {
      firstName: r.firstName,
      lastName: r.lastName,
      address: person.address,
      zip: nationwide ? null : r.zip,
    };
    const context: NoiseContext = { formalFirst: person.formalFirst, previous: person.previous };
    const wanted = NOISE_COUNTS.pick(rng);
    const chosen = new Set<PiiNoise>();
    // a stale address first, so the other address noise is judged against the address actually used
    if (wanted > 0 && person.previous && rng.chance(0.3)) chosen.add('staleAddress');
    const effective = chosen.has('staleAddress')
      ? { ...draft, address: person.previous!, zip: nationwide ? null : person.previous!.zip }
      : draft;
    for (const kind of rng.sample(PII_NOISE, PII_NOISE.length)) {
      if (chosen.size >= wanted) break;
      if (kind !== 'staleAddress' && applicable(kind, effective, context)) chosen.add(kind);
    }
    const noise = PII_NOISE.filter((kind) => chosen.has(kind));
    for (const kind of noise) draft = addNoise(rng, kind, draft, context);
    let input = nationwide ? withoutPlace(renderPii(draft)) : renderPii(draft);
    if (chosen.has('case')) input = recaseInput(rng, input, nationwide ? NATIONWIDE_TEXT : undefined);
    return { kind: 'pii', noise, input, identityId: r.id };
  }

  /** An exact-key query on a key only this person has (the id always qualifies). */
  private exact(rng: Rng, person: GeneratedPerson): Query {
    const own = person.own;
    const available: Record<ExactKind, boolean> = {
      email: own.emails.length > 0,
      md5: own.emails.length > 0,
      sha256: own.emails.length > 0,
      phone: own.phones.length > 0,
      ip: own.ips.length > 0,
      device: own.devices.length > 0,
      vin: own.vins.length > 0,
      id: true,
    };
    const kinds = (Object.keys(EXACT_WEIGHTS) as ExactKind[]).filter((k) => available[k]);
    const kind = new Weighted(
      kinds,
      kinds.map((k) => EXACT_WEIGHTS[k]),
    ).pick(rng);
    const key = (() => {
      switch (kind) {
        case 'email':
        case 'md5':
        case 'sha256':
          return rng.pick(own.emails);
        case 'phone':
          return rng.pick(own.phones);
        case 'ip':
          return rng.pick(own.ips);
        case 'device':
          return rng.pick(own.devices);
        case 'vin':
          return rng.pick(own.vins);
        case 'id':
          return String(person.record.id);
      }
    })();
    return { ...this.keyQuery(rng, kind, key), identityId: person.record.id };
  }

  /** An exact-key query for a normalized key: as stored, or (half the time) in a raw shape people send. */
  private keyQuery(rng: Rng, kind: ExactKind, key: string): Omit<Query, 'identityId'> {
    const value = kind === 'md5' || kind === 'sha256' ? hex(kind, key) : key;
    if (rng.chance(0.5)) return { kind, noise: [], input: { [kind]: value } };
    const [raw, noise] = rawShape(rng, kind, value);
    return { kind, noise, input: { [kind]: raw } };
  }

  /** Someone made up, at a five-digit house number no one in the graph has. */
  private stranger(rng: Rng): Query {
    const g: Gender = rng.chance(0.5) ? 'F' : 'M';
    const address = newAddress(rng, pickCity(rng), { absent: true, unitShare: 0.15 });
    return negative(
      'stranger',
      renderPii({ firstName: givenName(rng, g), lastName: lastName(rng), address, zip: address.zip }),
    );
  }

  /** Someone new on the household's street (another name, another house number). */
  private neighbour(rng: Rng, household: Household): Query {
    const taken = new Set(household.people.flatMap((p) => [p.record.firstName, p.record.lastName]));
    let first = givenName(rng, rng.chance(0.5) ? 'F' : 'M');
    let last = lastName(rng);
    while (taken.has(first)) first = givenName(rng, rng.chance(0.5) ? 'F' : 'M');
    while (taken.has(last)) last = lastName(rng);
    const address: Address = { ...household.address, number: rng.between(10000, 29999), unit: '' };
    return negative('neighbour', renderPii({ firstName: first, lastName: last, address, zip: address.zip }));
  }

  /** The sampled person's name, living in another state at an address no one in the graph has. */
  private namesake(rng: Rng, person: GeneratedPerson): Query {
    const address = newAddress(rng, pickCityIn(rng, person.address.state, true), { absent: true, unitShare: 0.15 });
    const r = person.record;
    return negative('namesake', renderPii({ firstName: r.firstName, lastName: r.lastName, address, zip: address.zip }));
  }

  /** A well-formed key of some kind that nobody in the graph has. */
  private unknownKey(rng: Rng, person: GeneratedPerson): Query {
    const kind = rng.pick(Object.keys(EXACT_WEIGHTS) as ExactKind[]);
    const r = person.record;
    const key = (() => {
      switch (kind) {
        case 'email':
        case 'md5':
        case 'sha256':
          return absentEmail(rng, { first: givenName(rng, r.gender), middle: '', last: lastName(rng) });
        case 'phone':
          return this.keys.phones.absent(pickCityIn(rng, r.state).npa);
        case 'ip':
          return rng.chance(0.8) ? this.keys.ips.absentV4() : this.keys.ips.absentV6(rng);
        case 'device':
          return this.keys.devices.absent(rng);
        case 'vin':
          return this.keys.vehicles.absent(rng).vin;
        case 'id':
          return String(this.identities + ++this.absentIds);
      }
    })();
    return { ...this.keyQuery(rng, kind, key), identityId: null, negative: 'unknownKey' };
  }
}

/** The text fields a nationwide query has (its city is empty). */
const NATIONWIDE_TEXT = ['firstName', 'lastName', 'address'] as const;

/** The query without zip, city or state: searched nationwide (city and state empty, as a CSV's blank columns). */
export function withoutPlace(input: PiiInput): PiiInput {
  const { zip: _zip, ...rest } = input;
  return { ...rest, city: '', state: '' };
}

/** A PII query searched nationwide: a street line with neither zip nor state (nor city). */
export function isNationwideQuery(q: { kind: string; input: object }): boolean {
  const input = q.input as Partial<PiiInput>;
  return q.kind === 'pii' && !input.zip?.trim() && !input.state?.trim() && !input.city?.trim() && !!input.address;
}

function negative(kind: NegativeKind, input: Query['input']): Query {
  return { kind: 'pii', noise: [], input, identityId: null, negative: kind };
}

/** A key as people send it, and what differs from the stored form (only what really differs). */
function rawShape(rng: Rng, kind: ExactKind, value: string): [string, KeyNoise[]] {
  let raw: string;
  switch (kind) {
    case 'email':
      raw = rng.chance(0.5)
        ? ` ${value.toUpperCase()}  `
        : ` ${value.replace(/(^|[._@])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase())}  `;
      break;
    case 'phone':
      raw = rawPhone(rng, value);
      break;
    case 'ip':
      raw = value.includes(':') ? expandedIpv6(value) : ` ${value} `;
      break;
    case 'vin':
      raw = ` ${value.toLowerCase()} `;
      break;
    case 'id':
      raw = ` ${value} `;
      break;
    default:
      raw = value.toUpperCase();
  }
  const noise: KeyNoise[] = [];
  const trimmed = raw.trim();
  const storedLower = value === value.toLowerCase();
  if (storedLower ? trimmed !== trimmed.toLowerCase() : trimmed !== trimmed.toUpperCase()) noise.push('case');
  if (raw !== trimmed) noise.push('spaces');
  if (trimmed.toLowerCase() !== value.toLowerCase()) noise.push('format');
  return [raw, noise];
}
