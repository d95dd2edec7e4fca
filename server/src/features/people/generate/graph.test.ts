import { isValidVin, modelYearOf } from '@tessera/common/vin';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IdentityRecord } from '../record';
import { AS_OF } from './dates';
import { generateGraph, MAX_IDENTITIES } from './graph';
import { CITIES, STATES } from './places';
import { generateSmallGraph, type LoadedGraph } from './test-graph';
import { VEHICLE_MAKES } from './vehicles';

const N = 3000;
let graph: LoadedGraph;
beforeAll(async () => {
  graph = await generateSmallGraph(N, 'graph-test');
});

/** Consecutive people at the same address: one household (the generator writes households together). */
function households(people: IdentityRecord[]): IdentityRecord[][] {
  const out: IdentityRecord[][] = [];
  for (const p of people) {
    const last = out.at(-1);
    if (last && last[0]!.address === p.address && last[0]!.zip === p.zip) last.push(p);
    else out.push([p]);
  }
  return out;
}

describe('generated graph: determinism', () => {
  it('writes byte-identical files for the same size and seed', async () => {
    const again = await generateSmallGraph(N, 'graph-test');
    expect(again.hashes).toEqual(graph.hashes);
    expect(again.text.people.slice(0, 2000)).toBe(graph.text.people.slice(0, 2000));
  });

  it('writes different files for another seed', async () => {
    const other = await generateSmallGraph(N, 'graph-test-2');
    expect(other.hashes.people).not.toBe(graph.hashes.people);
    expect(other.hashes.queries).not.toBe(graph.hashes.queries);
    expect(other.people[0]).not.toEqual(graph.people[0]);
  });

  it('starts a bigger graph with the same people as a smaller one of the same seed', async () => {
    const smaller = await generateSmallGraph(1000, 'graph-test');
    expect(smaller.people.slice(0, 990)).toEqual(graph.people.slice(0, 990));
  });

  it('refuses sizes outside 1..MAX_IDENTITIES', async () => {
    await expect(generateGraph({ identities: 0, seed: '1', out: graph.dir })).rejects.toThrow('identities');
    await expect(generateGraph({ identities: MAX_IDENTITIES + 1, seed: '1', out: graph.dir })).rejects.toThrow();
  });
});

describe('generated graph: shape', () => {
  it('holds N schema-valid records with ids 1..N and a matching manifest', () => {
    expect(graph.people.map((p) => p.id)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(graph.summary.identities).toBe(N);
    expect(graph.summary.records.emails).toBe(graph.people.reduce((n, p) => n + p.emails.length, 0));
    expect(JSON.parse(graph.text.manifest)).toEqual(graph.summary);
  });

  it('gives each person 0-5 e-mails, phones, devices, vehicles and IPs, with every count used', () => {
    for (const key of ['emails', 'phones', 'devices', 'vehicles', 'ips'] as const) {
      const counts = new Set(graph.people.map((p) => p[key].length));
      expect(Math.max(...counts), key).toBeLessThanOrEqual(5);
      expect([...counts].sort(), key).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });

  it('uses real states, cities in them and ZIPs in their prefixes, for current and previous addresses', () => {
    const cities = new Set(CITIES.map((c) => `${c.name}|${c.state}|${c.zip3}`));
    const check = (city: string, state: string, zip: string) => {
      expect(cities.has(`${city}|${state}|${zip.slice(0, 3)}`), `${city}, ${state} ${zip}`).toBe(true);
      const ranges = STATES.find((s) => s.abbreviation === state)!.zip3;
      expect(ranges.some(([lo, hi]) => Number(zip.slice(0, 3)) >= lo && Number(zip.slice(0, 3)) <= hi)).toBe(true);
    };
    let previous = 0;
    for (const p of graph.people) {
      check(p.city, p.state, p.zip);
      expect(p.address).toMatch(/^\d{1,4} \S/);
      if (p.data.previousAddress) {
        previous++;
        check(p.data.previousCity!, p.data.previousState!, p.data.previousZip!);
        expect(p.data.previousAddress).not.toBe(p.address);
      }
    }
    expect(previous).toBeGreaterThan(N / 10);
    expect(graph.people.filter((p) => / (Apt|Unit|#|Ste|Lot) \S+$/.test(p.address)).length).toBeGreaterThan(N / 10);
  });

  it('writes valid-shaped keys: NANP phones, lower-case UUID devices, lower-case e-mails, IPv4 and some IPv6', () => {
    const all = graph.people;
    for (const p of all) {
      for (const ph of p.phones) expect(ph.number).toMatch(/^\+1[2-9]\d\d[2-9]\d{6}$/);
      for (const d of p.devices)
        expect(d.deviceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      for (const e of p.emails) expect(e.address).toBe(e.address.toLowerCase().trim());
    }
    const ips = all.flatMap((p) => p.ips.map((i) => i.ip));
    expect(ips.some((ip) => ip.includes(':'))).toBe(true);
    expect(ips.filter((ip) => ip.includes('.')).length).toBeGreaterThan(ips.length / 2);
    expect(all.some((p) => p.phones.some((ph) => ph.type === 'landline'))).toBe(true);
  });

  it('gives vehicles valid VINs with the make’s WMI and the model-year code of their year', () => {
    const wmis = new Map(VEHICLE_MAKES.map((m) => [m.name, new Set(m.wmis)]));
    const vehicles = graph.people.flatMap((p) => p.vehicles);
    expect(vehicles.length).toBeGreaterThan(N / 2);
    for (const v of vehicles) {
      expect(isValidVin(v.vin), v.vin).toBe(true);
      expect(modelYearOf(v.vin), v.vin).toBe(v.year);
      expect(wmis.get(v.make)?.has(v.vin.slice(0, 3)), `${v.make} ${v.vin}`).toBe(true);
    }
  });

  it('keeps every personal key unique; only household members share IPs and landlines', () => {
    const owners = (pick: (p: IdentityRecord) => string[]) => {
      const map = new Map<string, Set<number>>();
      for (const p of graph.people) for (const k of pick(p)) map.set(k, (map.get(k) ?? new Set()).add(p.id));
      return map;
    };
    for (const [what, map] of [
      ['e-mail', owners((p) => p.emails.map((e) => e.address))],
      ['device', owners((p) => p.devices.map((d) => d.deviceId))],
      ['VIN', owners((p) => p.vehicles.map((v) => v.vin))],
      ['mobile', owners((p) => p.phones.filter((ph) => ph.type === 'mobile').map((ph) => ph.number))],
    ] as const) {
      for (const [key, ids] of map) expect(ids.size, `${what} ${key}`).toBe(1);
    }
    const addressOf = new Map(graph.people.map((p) => [p.id, `${p.address}|${p.zip}`]));
    for (const map of [owners((p) => p.ips.map((i) => i.ip)), owners((p) => p.phones.map((ph) => ph.number))]) {
      for (const [key, ids] of map) {
        expect(new Set([...ids].map((id) => addressOf.get(id))).size, key).toBe(1);
      }
    }
  });

  it('groups 1-5 people per household, sharing address and home IPs, usually a last name', () => {
    const groups = households(graph.people);
    expect(Math.max(...groups.map((g) => g.length))).toBe(5);
    const multi = groups.filter((g) => g.length > 1);
    expect(multi.length).toBeGreaterThan(groups.length / 2);
    let sharedName = 0;
    let sharedIp = 0;
    for (const g of multi) {
      for (const p of g) expect([p.city, p.state, p.zip]).toEqual([g[0]!.city, g[0]!.state, g[0]!.zip]);
      if (new Set(g.map((p) => p.lastName)).size < g.length) sharedName++;
      const first = new Set(g[0]!.ips.map((i) => i.ip));
      if (first.size > 0 && g.every((p) => p.ips.some((i) => first.has(i.ip)))) sharedIp++;
    }
    expect(sharedName / multi.length).toBeGreaterThan(0.7);
    expect(sharedIp / multi.length).toBeGreaterThan(0.7);
  });

  it('uses names with US frequencies: common ones often, some nicknames, most genders known', () => {
    const count = (f: (p: IdentityRecord) => boolean) => graph.people.filter(f).length;
    expect(count((p) => p.lastName === 'Smith')).toBeGreaterThan(count((p) => p.lastName === 'Hess'));
    expect(count((p) => ['Bob', 'Bill', 'Jim', 'Mike', 'Liz', 'Kate', 'Tom'].includes(p.firstName))).toBeGreaterThan(5);
    expect(count((p) => p.gender === '')).toBeLessThan(N / 10);
    expect(count((p) => p.suffix !== '')).toBeGreaterThan(0);
  });

  it('dates every record within 2000..as-of, first seen before last seen, inside the person’s span', () => {
    for (const p of graph.people) {
      expect(p.firstSeen <= p.lastSeen).toBe(true);
      expect(p.lastSeen <= AS_OF).toBe(true);
      const linked = [p.emails, p.phones, p.ips, p.devices, p.vehicles, p.properties, p.companies, p.behaviors].flat();
      for (const r of linked) {
        expect(r.firstSeen <= r.lastSeen).toBe(true);
        expect(r.firstSeen >= p.firstSeen && r.lastSeen <= p.lastSeen).toBe(true);
      }
      if (p.birthYear !== null) expect(2026 - p.birthYear).toBeGreaterThanOrEqual(18);
    }
  });
});

describe('generated graph: the same on every machine', () => {
  it('matches the pinned digest of a small graph (update it only when changing the generator on purpose)', async () => {
    const pinned = await generateSmallGraph(300, 'pinned');
    expect(pinned.hashes).toMatchInlineSnapshot(`
      {
        "manifest": "1a1db6062ddd6ace13a2d3fb53f2083b8703744be06b9c827f882a2fd99f2871",
        "people": "0017dc83da1a06384a8b140ed7ae1c1a9352af577776de7b072d9b17ad2250bc",
        "queries": "13000a8af76c8f6b17b4290d7c34f2a362cf55c4fa0d3cf9ae0181fd8ee9980a",
      }
    `);
  });
});
