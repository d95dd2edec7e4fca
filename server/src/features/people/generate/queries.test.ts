import { createHash } from 'node:crypto';
import { isValidVin, normalizeVin } from '@tessera/common/vin';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXACT_KINDS, type LabelledQuery, PII_NOISE, type PiiInput } from '../labelled-query';
import { sameGivenName } from '../nicknames';
import type { IdentityRecord } from '../record';
import { normalizeAddress, normalizeAddressLine } from '../streets';
import { isNationwideQuery, sampleSize } from './queries';
import { editDistance, generateSmallGraph, type LoadedGraph, loose } from './test-graph';

const N = 3000;
let graph: LoadedGraph;
let byId: Map<number, IdentityRecord>;
beforeAll(async () => {
  graph = await generateSmallGraph(N, 'queries-test');
  byId = new Map(graph.people.map((p) => [p.id, p]));
});

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** What a lookup would compare, for each key kind (test-local; the lookup engine has its own normalizers). */
function normalizeKey(kind: string, raw: string): string {
  const v = raw.trim();
  switch (kind) {
    case 'phone': {
      const digits = v.replace(/\D/g, '');
      return `+1${digits.length === 11 ? digits.slice(1) : digits}`;
    }
    case 'ip':
      return v.includes(':')
        ? v
            .toLowerCase()
            .split(':')
            .map((g) => g.replace(/^0+(?=.)/, ''))
            .join(':')
        : v;
    case 'vin':
      return normalizeVin(v);
    default:
      return v.toLowerCase();
  }
}

/** Every key of each kind → the ids that have it. */
function keyIndex(people: IdentityRecord[]): Map<string, Map<string, Set<number>>> {
  const index = new Map<string, Map<string, Set<number>>>(EXACT_KINDS.map((k) => [k, new Map()]));
  const add = (kind: string, key: string, id: number) => {
    const m = index.get(kind)!;
    m.set(key, (m.get(key) ?? new Set()).add(id));
  };
  for (const p of people) {
    add('id', String(p.id), p.id);
    for (const e of p.emails) {
      add('email', e.address, p.id);
      add('md5', md5(e.address), p.id);
      add('sha256', sha256(e.address), p.id);
    }
    for (const ph of p.phones) add('phone', ph.number, p.id);
    for (const ip of p.ips) add('ip', ip.ip, p.id);
    for (const d of p.devices) add('device', d.deviceId, p.id);
    for (const v of p.vehicles) add('vin', v.vin, p.id);
  }
  return index;
}

const piiOf = (p: IdentityRecord): PiiInput => ({
  firstName: p.firstName,
  lastName: p.lastName,
  address: p.address,
  city: p.city,
  state: p.state,
  zip: p.zip,
});

const positives = () => graph.queries.filter((q) => q.identityId !== null);
type PiiQuery = LabelledQuery & { input: PiiInput };
/** Located PII queries (a zip, or a city and state); the nationwide ones are tested on their own. */
const piiQueries = () => positives().filter((q) => q.kind === 'pii' && !isNationwideQuery(q)) as PiiQuery[];
const nationwideQueries = () => graph.queries.filter(isNationwideQuery) as PiiQuery[];

describe('labelled query set', () => {
  it('samples about 1 % of people (at least 1,000, at most 50,000), one PII query each, ids 1..Q', () => {
    expect(sampleSize(500)).toBe(500);
    expect(sampleSize(100_000)).toBe(1_000);
    expect(sampleSize(1_000_000)).toBe(10_000);
    expect(sampleSize(10_000_000)).toBe(50_000);
    expect(piiQueries()).toHaveLength(sampleSize(N));
    expect(graph.queries.map((q) => q.id)).toEqual(graph.queries.map((_, i) => i + 1));
    expect(graph.summary.queries.total).toBe(graph.queries.length);
  });

  it('labels every positive query with an existing identity', () => {
    for (const q of positives()) expect(byId.has(q.identityId!), `query ${q.id}`).toBe(true);
  });

  it('has exact-key queries of every kind, normalized and raw, each key belonging to its identity alone', () => {
    const index = keyIndex(graph.people);
    const exact = positives().filter((q) => q.kind !== 'pii');
    expect(new Set(exact.map((q) => q.kind))).toEqual(new Set(EXACT_KINDS));
    expect(exact.some((q) => q.noise.length === 0)).toBe(true);
    expect(exact.some((q) => q.noise.length > 0)).toBe(true);
    for (const q of exact) {
      const raw = (q.input as Record<string, string>)[q.kind]!;
      const key = normalizeKey(q.kind, raw);
      expect([...(index.get(q.kind)!.get(key) ?? [])], `query ${q.id} ${q.kind} ${raw}`).toEqual([q.identityId]);
      expect(q.noise.length === 0, `query ${q.id}`).toBe(raw === key);
      if (q.noise.includes('spaces')) expect(raw).not.toBe(raw.trim());
      if (q.noise.includes('case')) expect(raw.trim().toLowerCase() === raw.trim() && raw.trim() === key).toBe(false);
    }
    const raws = exact.filter((q) => q.kind === 'phone' && q.noise.includes('format'));
    expect(raws.some((q) => /^\(\d{3}\) \d{3}-\d{4}$/.test((q.input as { phone: string }).phone))).toBe(true);
    const emails = exact.filter((q) => q.kind === 'email' && q.noise.includes('case'));
    expect(emails.some((q) => /[A-Z]/.test((q.input as { email: string }).email))).toBe(true);
  });

  it('uses every noise kind, and each changes the input the way it says (queries with one kind)', () => {
    const pii = piiQueries();
    for (const kind of PII_NOISE)
      expect(
        pii.some((q) => q.noise.length === 1 && q.noise[0] === kind),
        kind,
      ).toBe(true);
    for (const q of pii) {
      const p = byId.get(q.identityId!)!;
      const truth = piiOf(p);
      const input = q.input;
      expect('zip' in input, `query ${q.id}`).toBe(!q.noise.includes('missingZip'));
      if (q.noise.length === 0) expect(input).toEqual(truth);
      if (q.noise.length !== 1) continue;
      const same = (...fields: (keyof PiiInput)[]) => {
        for (const f of fields) expect(input[f], `query ${q.id} ${f}`).toBe(truth[f]);
      };
      switch (q.noise[0]) {
        case 'typo': {
          same('address', 'city', 'state', 'zip');
          const changed = (['firstName', 'lastName'] as const).filter((f) => input[f] !== truth[f]);
          expect(changed).toHaveLength(1);
          const f = changed[0]!;
          expect(editDistance(input[f].toLowerCase(), truth[f].toLowerCase())).toBe(1);
          break;
        }
        case 'nickname':
          same('lastName', 'address', 'city', 'state', 'zip');
          expect(input.firstName).not.toBe(truth.firstName);
          expect(sameGivenName(input.firstName, truth.firstName)).toBe(true);
          break;
        case 'swapped':
          same('address', 'city', 'state', 'zip');
          expect([input.firstName, input.lastName]).toEqual([truth.lastName, truth.firstName]);
          break;
        case 'suffix':
          same('firstName', 'lastName', 'city', 'state', 'zip');
          expect(input.address).not.toBe(truth.address);
          expect(normalizeAddressLine(input.address)).toBe(normalizeAddressLine(truth.address));
          break;
        case 'missingUnit':
          same('firstName', 'lastName', 'city', 'state', 'zip');
          expect(normalizeAddress(truth.address).unit).not.toBe('');
          expect(normalizeAddress(input.address)).toEqual({ street: normalizeAddress(truth.address).street, unit: '' });
          expect(truth.address.startsWith(input.address)).toBe(true);
          break;
        case 'staleAddress':
          same('firstName', 'lastName');
          expect([input.address, input.city, input.state, input.zip]).toEqual([
            p.data.previousAddress,
            p.data.previousCity,
            p.data.previousState,
            p.data.previousZip,
          ]);
          expect(input.address).not.toBe(truth.address);
          break;
        case 'missingZip':
          same('firstName', 'lastName', 'address', 'city', 'state');
          break;
        case 'case':
          expect(input).not.toEqual(truth);
          for (const f of ['firstName', 'lastName', 'address', 'city', 'state', 'zip'] as const) {
            expect(loose(input[f] ?? ''), `query ${q.id} ${f}`).toBe(loose(truth[f] ?? ''));
          }
          break;
      }
    }
  });

  it('keeps the noise of multi-noise queries consistent with the record', () => {
    for (const q of piiQueries().filter((x) => x.noise.length > 1)) {
      const p = byId.get(q.identityId!)!;
      const names = loose(`${q.input.firstName} ${q.input.lastName}`);
      if (!q.noise.includes('typo') && !q.noise.includes('nickname')) {
        const expected = q.noise.includes('swapped') ? `${p.lastName} ${p.firstName}` : `${p.firstName} ${p.lastName}`;
        expect(names, `query ${q.id}`).toBe(loose(expected));
      }
      const street = normalizeAddress(q.input.address).street;
      const expectedStreet = normalizeAddress(
        q.noise.includes('staleAddress') ? p.data.previousAddress! : p.address,
      ).street;
      expect(street, `query ${q.id}`).toBe(expectedStreet);
      // the noise list is in the canonical order
      expect(q.noise).toEqual(PII_NOISE.filter((k) => (q.noise as string[]).includes(k)));
    }
  });

  it('adds nationwide PII queries (no zip, city or state) with the same noise, for about half the sampled people', () => {
    const all = nationwideQueries();
    const found = all.filter((q) => q.identityId !== null);
    expect(found.length).toBeGreaterThan(sampleSize(N) * 0.4);
    expect(found.length).toBeLessThan(sampleSize(N) * 0.6);
    expect(new Set(all.filter((q) => q.identityId === null).map((q) => q.negative))).toEqual(
      new Set(['stranger', 'neighbour', 'namesake']),
    );
    for (const q of all) {
      expect('zip' in q.input, `query ${q.id}`).toBe(false);
      expect([q.input.city, q.input.state], `query ${q.id}`).toEqual(['', '']);
    }
    const kinds = PII_NOISE.filter((k) => k !== 'missingZip');
    for (const kind of kinds)
      expect(
        found.some((q) => q.noise.length === 1 && q.noise[0] === kind),
        kind,
      ).toBe(true);
    for (const q of found) {
      const p = byId.get(q.identityId!)!;
      expect(q.noise).not.toContain('missingZip');
      const address = q.noise.includes('staleAddress') ? p.data.previousAddress! : p.address;
      if (q.noise.length === 0) expect(q.input).toEqual({ ...piiOf(p), zip: undefined, city: '', state: '' });
      // every kind of noise keeps the house number and the street (what nationwide blocking relies on)
      expect(normalizeAddress(q.input.address).street, `query ${q.id}`).toBe(normalizeAddress(address).street);
      if (q.noise.length === 1 && q.noise[0] === 'case') {
        for (const f of ['firstName', 'lastName', 'address'] as const)
          expect(loose(q.input[f]), `query ${q.id} ${f}`).toBe(loose(piiOf(p)[f]));
      }
    }
  });

  it('adds negative queries that are certainly not in the graph', () => {
    const negatives = graph.queries.filter((q) => q.identityId === null);
    expect(negatives.length).toBeGreaterThan(N / 20);
    expect(new Set(negatives.map((q) => q.negative))).toEqual(
      new Set(['stranger', 'neighbour', 'namesake', 'unknownKey']),
    );
    const index = keyIndex(graph.people);
    const everyone = new Set(
      graph.people.map((p) =>
        loose(`${p.firstName}|${p.lastName}|${normalizeAddressLine(p.address)}|${p.city}|${p.state}`),
      ),
    );
    for (const q of negatives) {
      if (q.kind === 'pii') {
        const input = q.input as PiiInput;
        expect(input.address).toMatch(/^[1-2]\d{4} /);
        const key = loose(
          `${input.firstName}|${input.lastName}|${normalizeAddressLine(input.address)}|${input.city}|${input.state}`,
        );
        expect(everyone.has(key), `query ${q.id}`).toBe(false);
      } else {
        const raw = (q.input as Record<string, string>)[q.kind]!;
        const key = normalizeKey(q.kind, raw);
        expect(index.get(q.kind)!.has(key), `query ${q.id} ${q.kind} ${key}`).toBe(false);
        if (q.kind === 'id') expect(Number(key)).toBeGreaterThan(N);
        if (q.kind === 'vin') expect(isValidVin(key)).toBe(true);
      }
    }
  });
});
