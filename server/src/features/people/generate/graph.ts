/**
 * `tessera generate`: writes DIR/people.jsonl (one identity record per line, ids 1..N), DIR/queries.jsonl (the
 * labelled query set) and DIR/manifest.json (what was generated, with counts), household by household in
 * constant memory. The same identities and seed give byte-identical files on any machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RecordType } from '@tessera/common/record-types';
import { AS_OF } from './dates';
import { EmailAddresses } from './emails';
import { buildHousehold } from './household';
import { DeviceIds, IpAddresses } from './network';
import type { GraphKeys } from './person';
import { PhoneNumbers } from './phones';
import { SeedKey } from './prng';
import type { Progress } from './progress';
import { QuerySet } from './queries';
import { Vehicles } from './vehicles';
import { LineWriter } from './writer';

/** Unique keys (phone numbers per area code, VIN serials) are sized for at most this many identities. */
export const MAX_IDENTITIES = 10_000_000;

export const FILES = { people: 'people.jsonl', queries: 'queries.jsonl', manifest: 'manifest.json' } as const;

export interface GenerateOptions {
  identities: number;
  seed: string;
  out: string;
  progress?: Progress;
}

export interface GenerateSummary {
  format: 'tessera-identity-graph';
  version: 1;
  identities: number;
  seed: string;
  asOf: string;
  households: number;
  queries: { total: number; positive: number; negative: number; sampledPeople: number };
  records: Record<RecordType, number>;
  files: typeof FILES;
}

export function graphKeys(seed: SeedKey): GraphKeys {
  return {
    emails: new EmailAddresses(),
    phones: new PhoneNumbers(seed),
    ips: new IpAddresses(seed),
    devices: new DeviceIds(seed),
    vehicles: new Vehicles(seed),
  };
}

export async function generateGraph(options: GenerateOptions): Promise<GenerateSummary> {
  const { identities, seed, out } = options;
  if (!Number.isSafeInteger(identities) || identities < 1 || identities > MAX_IDENTITIES) {
    throw new RangeError(`identities must be a whole number from 1 to ${MAX_IDENTITIES}`);
  }
  await mkdir(out, { recursive: true });
  const key = new SeedKey(seed);
  const keys = graphKeys(key);
  const querySet = new QuerySet(key, keys, identities);
  const people = await LineWriter.create(path.join(out, FILES.people));
  const queries = await LineWriter.create(path.join(out, FILES.queries)).catch(async (err) => {
    await people.abandon();
    throw err;
  });
  const records: Record<RecordType, number> = {
    behaviors: 0,
    data: 0,
    devices: 0,
    emails: 0,
    ips: 0,
    phones: 0,
    properties: 0,
    vehicles: 0,
    finances: 0,
    companies: 0,
  };
  let positive = 0;
  let negative = 0;
  let households = 0;
  try {
    let nextId = 1;
    while (nextId <= identities) {
      const household = buildHousehold(key, keys, households++, nextId, identities - nextId + 1);
      for (const person of household.people) {
        const r = person.record;
        people.add(JSON.stringify(r));
        records.emails += r.emails.length;
        records.phones += r.phones.length;
        records.ips += r.ips.length;
        records.devices += r.devices.length;
        records.vehicles += r.vehicles.length;
        records.properties += r.properties.length;
        records.companies += r.companies.length;
        records.behaviors += r.behaviors.length;
        records.data += Object.keys(r.data).length;
        records.finances += r.finances ? 1 : 0;
        if (querySet.sampled(r.id)) {
          for (const query of querySet.forPerson(person, household)) {
            const id = queries.lines + 1;
            queries.add(JSON.stringify({ id, ...query }));
            if (query.identityId === null) negative++;
            else positive++;
          }
        }
      }
      nextId += household.people.length;
      options.progress?.update(nextId - 1);
      await people.drain();
      await queries.drain();
    }
    await people.finish();
    await queries.finish();
  } catch (err) {
    await people.abandon();
    await queries.abandon();
    throw err;
  }
  options.progress?.finish();
  const summary: GenerateSummary = {
    format: 'tessera-identity-graph',
    version: 1,
    identities,
    seed,
    asOf: AS_OF,
    households,
    queries: { total: positive + negative, positive, negative, sampledPeople: querySet.size },
    records,
    files: FILES,
  };
  await writeFile(path.join(out, FILES.manifest), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
