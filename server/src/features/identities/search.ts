/**
 * The lookup's SQL. A whole batch of inputs costs one statement for every exact key type together (with the
 * records of the people found), one for the PII candidates of every PII input, and one for the records of the
 * PII matches: never one per input. Suppressed people, e-mails (by address or hash) and phones are never found.
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import type { RecordType } from '@tessera/common/record-types';
import type { Database } from '../../db/client';
import type { PiiFields } from '../scoring/comparisons';
import { createKeyBatches, type KeyRows, type Keys } from './key-batches';
import { buildRecordsSql, RECORD_VERSION, restrictRecord, suppressedSql } from './record-sql';

export type IdentityJson = Record<string, unknown> & { id: number };

export interface KeyHit {
  kind: LookupKey;
  key: string;
  id: number;
  lastSeen: string | null;
  /** A phone's type ('mobile' or 'landline'). */
  detail: string | null;
  /** People (not suppressed) the key is seen with; only the `limit` most recently seen come back. */
  sharedBy: number;
}

const NOT_SUPPRESSED_PERSON = `not ${suppressedSql("('identity', p.id::text)")}`;
const EMAIL_SUPPRESSED = suppressedSql("('email', e.address)", "('md5', e.md5)", "('sha256', e.sha256)");

/** One branch per key type: the rows of its table holding any of the keys in the array parameter `$n`. */
const BRANCH: Record<LookupKey, { type: string; sql: (n: number) => string }> = {
  email: {
    type: 'text[]',
    sql: (n) => `select 'email'::text as kind, e.address as key, e.identity_id as id, e.last_seen, null::text as detail
      from person_emails e where e.address = any($${n}::text[]) and not ${EMAIL_SUPPRESSED}`,
  },
  md5: {
    type: 'text[]',
    sql: (n) => `select 'md5', e.md5, e.identity_id, e.last_seen, null::text
      from person_emails e where e.md5 = any($${n}::text[]) and not ${EMAIL_SUPPRESSED}`,
  },
  sha256: {
    type: 'text[]',
    sql: (n) => `select 'sha256', e.sha256, e.identity_id, e.last_seen, null::text
      from person_emails e where e.sha256 = any($${n}::text[]) and not ${EMAIL_SUPPRESSED}`,
  },
  phone: {
    type: 'text[]',
    sql: (n) => `select 'phone', f.number, f.identity_id, f.last_seen, f.type
      from person_phones f where f.number = any($${n}::text[]) and not ${suppressedSql("('phone', f.number)")}`,
  },
  // The key comes back as the caller's normalized text, not as PostgreSQL prints the inet (::102:304 vs ::1.2.3.4).
  ip: {
    type: 'text[]',
    sql: (n) => `select 'ip', k.key, i.identity_id, i.last_seen, null::text
      from unnest($${n}::text[]) as k(key) join person_ips i on i.ip = k.key::inet`,
  },
  device: {
    type: 'text[]',
    sql: (n) => `select 'device', d.device_id, d.identity_id, d.last_seen, null::text
      from person_devices d where d.device_id = any($${n}::text[])`,
  },
  vin: {
    type: 'text[]',
    sql: (n) => `select 'vin', v.vin, v.identity_id, v.last_seen, null::text
      from person_vehicles v where v.vin = any($${n}::text[])`,
  },
  id: {
    type: 'bigint[]',
    sql: (n) =>
      `select 'id', p.id::text, p.id, p.last_seen, null::text from people p where p.id = any($${n}::bigint[])`,
  },
};

const statementCache = new Map<string, string>();

/** The statement for this set of key types, built once and kept. */
function keyStatement(kinds: LookupKey[]): string {
  const cacheKey = kinds.join();
  let text = statementCache.get(cacheKey);
  if (!text) {
    const branches = kinds.map((kind, i) => `(${BRANCH[kind].sql(i + 1)})`).join('\n  union all\n  ');
    // Everyone holding a key is counted (a shared key's score says how widely), but only the `limit` most recently
    // seen with it are read in full: a key seen with thousands of people must not build thousands of records.
    text = `with raw(kind, key, id, last_seen, detail) as (
  ${branches}
), hits as (
  select r.*, count(*) over (partition by r.kind, r.key) as shared_by,
    row_number() over (partition by r.kind, r.key order by r.last_seen desc nulls last, r.id) as rank
  from raw r where not ${suppressedSql("('identity', r.id::text)")}
), kept as (
  select * from hits where rank <= $${kinds.length + 1}
), found as (
  select r.identity_id, r.record from person_records r
  where r.identity_id in (select id from kept) and r.version = ${RECORD_VERSION}
)
select
  (select json_agg(json_build_object('kind', k.kind, 'key', k.key, 'id', k.id, 'lastSeen', k.last_seen,
     'detail', k.detail, 'sharedBy', k.shared_by)) from kept k) as hits,
  (select json_agg(json_build_array(f.identity_id, f.record::text)) from found f) as records`;
    statementCache.set(cacheKey, text);
  }
  return text;
}

/**
 * Everyone holding any of the keys, with their stored records as JSON text (parsed by each lookup for itself): one
 * statement for every key type at once.
 */
export async function runKeys(database: Database, keys: Keys, limit: number): Promise<KeyRows> {
  const kinds = [...keys.keys()].sort();
  // Records as JSON text inside JSON (pairs of id and text): the driver's JSON.parse unpacks them natively, and each
  // lookup parses its own (as text[], the driver unescaped them in JavaScript: a fifth fewer calls a second).
  const [row] = await database.query<{ hits: KeyHit[] | null; records: [number, string][] | null }>(
    keyStatement(kinds),
    [...kinds.map((kind) => [...keys.get(kind)!]), limit],
    { prepare: true, budget: 'lookup' },
  );
  return { hits: row?.hits ?? [], records: new Map(row?.records ?? []) };
}

const batches = new WeakMap<Database, ReturnType<typeof createKeyBatches>>();

/**
 * Everyone holding any of the keys, with their records as the caller may see them: one key statement, shared with
 * the lookups running beside it (key-batches.ts), and a second only when some have no stored record (builtRecords).
 */
export async function findByKeys(
  database: Database,
  keys: Map<LookupKey, Set<string>>,
  types: Set<RecordType>,
  limit: number,
): Promise<{ hits: KeyHit[]; records: Map<number, IdentityJson> }> {
  if (keys.size === 0) return { hits: [], records: new Map() };
  let shared = batches.get(database);
  if (!shared) {
    shared = createKeyBatches(database, runKeys);
    batches.set(database, shared);
  }
  const found = await shared.find(keys, limit);
  const records = new Map<number, IdentityJson>();
  const unstored: number[] = [];
  for (const id of new Set(found.hits.map((h) => h.id))) {
    const record = found.records.get(id);
    if (record) records.set(id, restrictRecord(record, types));
    else unstored.push(id);
  }
  for (const [id, record] of await builtRecords(database, unstored, types)) records.set(id, record);
  return { hits: found.hits, records };
}

/** A person as the match model compares them: their names and every address they are known at. */
export interface PiiCandidate {
  id: number;
  firstName: string;
  lastName: string;
  homes: { address: string; city: string; state: string; zip: string }[];
}

// Blocking: the people a PII query could be, found by index and scored in full afterwards. With a zip, those
// living or having lived in it whose last name sounds like either given name, whose first name sounds like the
// first, who live at the same house number, or whose street is much like the given one. Without one, those in the
// state at the same house number whose name sounds alike or whose city is the given one (a typo that changes the
// last name's sound still finds them), and those in the state whose last name sounds the same, those whose first
// name sounds the same too taken first. Each block is capped so a common name cannot flood the scorer.
const LAST_SOUNDS = `dmetaphone(p.last_name) in (dmetaphone(q.last), dmetaphone(q.first))`;
const NAME_SOUNDS = `(${LAST_SOUNDS} or dmetaphone(p.first_name) = dmetaphone(q.first))`;
const HOUSE = (t: string) => `split_part(${t}.address, ' ', 1)`;
const SAME_HOUSE = (t: string) =>
  `(q.addr <> '' and (${HOUSE(t)} = split_part(q.addr, ' ', 1)
    or similarity(lower(${t}.address), lower(q.addr)) > 0.5))`;
/**
 * The blocks of a zip, each capped on its own: in a crowded zip more people share the sound of a common first name
 * than a block holds, and one capped block for every kind of likeness could fill with them before reaching the one
 * whose last name or house matches.
 */
const IN_ZIP: ((t: string) => string)[] = [
  () => LAST_SOUNDS,
  (t) => SAME_HOUSE(t),
  () => `dmetaphone(p.first_name) = dmetaphone(q.first)`,
];
const HOUSE_IN_STATE = (t: string) => `q.zip = '' and q.addr <> '' and ${t}.state = q.state
  and ${HOUSE(t)} = split_part(q.addr, ' ', 1) and (${NAME_SOUNDS} or lower(${t}.city) = lower(q.city))`;
const SOUND_IN_STATE = (t: string) => `q.zip = '' and ${t}.state = q.state
  and dmetaphone(p.last_name) in (dmetaphone(q.last), dmetaphone(q.first))
  order by (dmetaphone(p.first_name) = dmetaphone(q.first)) desc`;
/** Each candidate (not suppressed) with every address they are known at, numbered by the query that found them. */
const CANDIDATE_ROWS = `select cand.i::int as i, p.id, p.first_name as "firstName", p.last_name as "lastName",
  json_build_array(json_build_object('address', p.address, 'city', p.city, 'state', p.state, 'zip', p.zip))::jsonb
  || coalesce((select jsonb_agg(jsonb_build_object('address', a.address, 'city', a.city, 'state', a.state, 'zip', a.zip))
       from person_addresses a where a.identity_id = p.id), '[]'::jsonb) as homes
from cand join people p on p.id = cand.id
where ${NOT_SUPPRESSED_PERSON}`;
const CANDIDATE_STATEMENT = `with q as (
  select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) with ordinality
    as q(first, last, addr, city, state, zip, i)
), cand as (
  select distinct q.i, c.id from q cross join lateral (
    ${IN_ZIP.map(
      (test) => `(select p.id from people p where q.zip <> '' and p.zip = q.zip and ${test('p')} limit $7)
    union
    (select p.id from person_addresses a join people p on p.id = a.identity_id where q.zip <> '' and a.zip = q.zip
      and ${test('a')} limit $7)`,
    ).join('\n    union\n    ')}
    union
    (select p.id from people p where ${HOUSE_IN_STATE('p')} limit $7)
    union
    (select p.id from person_addresses a join people p on p.id = a.identity_id where ${HOUSE_IN_STATE('a')} limit $7)
    union
    (select p.id from people p where ${SOUND_IN_STATE('p')} limit $7)
    union
    (select p.id from person_addresses a join people p on p.id = a.identity_id where ${SOUND_IN_STATE('a')} limit $7)
  ) c
)
${CANDIDATE_ROWS}`;

// Nationwide (decision 0027): a query with a street address but no zip and no state is searched across the whole
// graph, in a statement of its own so the located statement above keeps its plans. Everyone living or having lived
// at the same house number on a street of the same first word (pii_house_street, migration 0014: suffix, unit,
// directional and case do not change it, so every kind of query noise still finds them), and those living at the
// same house number whose last name sounds like either given name (a street written otherwise still finds them).
// Both blocks are indexed and capped like the others; the model scores the candidates without city, state or zip.
const NATIONWIDE_STATEMENT = `with q as (
  select * from unnest($1::text[], $2::text[], $3::text[]) with ordinality as q(first, last, addr, i)
), cand as (
  select distinct q.i, c.id from q cross join lateral (
    (select p.id from people p where pii_house_street(p.address) = pii_house_street(q.addr) limit $4)
    union
    (select a.identity_id as id from person_addresses a
      where pii_house_street(a.address) = pii_house_street(q.addr) limit $4)
    union
    (select p.id from people p where ${HOUSE('p')} = split_part(q.addr, ' ', 1)
      and dmetaphone(p.last_name) in (dmetaphone(q.last), dmetaphone(q.first)) limit $4)
  ) c
)
${CANDIDATE_ROWS}`;

/** A PII query searched nationwide: a street address, and neither zip nor state (the rule in common/lookups.ts). */
export const isNationwide = (q: PiiFields): boolean => q.zip === '' && q.state === '' && q.address !== '';

type CandidateRow = PiiCandidate & { i: number; id: number | string };

/** The candidates of every PII query, in the queries' order. */
export async function findPiiCandidates(
  database: Database,
  queries: PiiFields[],
  perBlock: number,
): Promise<PiiCandidate[][]> {
  const out: PiiCandidate[][] = queries.map(() => []);
  if (queries.length === 0) return out;
  const located: number[] = [];
  const nationwide: number[] = [];
  for (const [i, q] of queries.entries()) (isNationwide(q) ? nationwide : located).push(i);
  const [locatedRows, nationwideRows] = await Promise.all([
    located.length === 0
      ? []
      : database.query<CandidateRow>(
          CANDIDATE_STATEMENT,
          [
            located.map((i) => queries[i]!.firstName),
            located.map((i) => queries[i]!.lastName),
            located.map((i) => queries[i]!.address),
            located.map((i) => queries[i]!.city),
            located.map((i) => queries[i]!.state),
            located.map((i) => queries[i]!.zip),
            perBlock,
          ],
          // Which index serves each block depends on the queries (a zip or not, an address or not): planned per call.
          { prepare: true, customPlan: true, budget: 'lookup' },
        ),
    nationwide.length === 0
      ? []
      : database.query<CandidateRow>(
          NATIONWIDE_STATEMENT,
          [
            nationwide.map((i) => queries[i]!.firstName),
            nationwide.map((i) => queries[i]!.lastName),
            nationwide.map((i) => queries[i]!.address),
            perBlock,
          ],
          { prepare: true, budget: 'lookup' },
        ),
  ]);
  for (const row of locatedRows) out[located[row.i - 1]!]!.push({ ...row, id: Number(row.id) });
  for (const row of nationwideRows) out[nationwide[row.i - 1]!]!.push({ ...row, id: Number(row.id) });
  return out;
}

/**
 * The records of these people built from the tables, for those without a stored one (decision 0017). A statement
 * of its own, so the statements of every lookup stay small enough to plan in a fraction of their run.
 */
async function builtRecords(
  database: Database,
  ids: number[],
  types: Set<RecordType>,
): Promise<[number, IdentityJson][]> {
  if (ids.length === 0) return [];
  const rows = await database.query<{ record: IdentityJson }>(
    `${buildRecordsSql((column) => `${column} = any($1::bigint[])`)} and ${NOT_SUPPRESSED_PERSON}`,
    [ids.map(String)],
    { prepare: true, budget: 'lookup' },
  );
  return rows.map((r) => [r.record.id, restrictRecord(r.record, types)] as [number, IdentityJson]);
}

/** The records of these people (suppressed ones left out): the stored ones, then any others built. */
export async function loadRecords(
  database: Database,
  ids: number[],
  types: Set<RecordType>,
): Promise<Map<number, IdentityJson>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ record: IdentityJson }>(
    `select r.record from person_records r
     where r.identity_id = any($1::bigint[]) and r.version = ${RECORD_VERSION}
       and not ${suppressedSql("('identity', r.identity_id::text)")}`,
    [ids.map(String)],
    { prepare: true, budget: 'lookup' },
  );
  const records = new Map(rows.map((r) => [r.record.id, restrictRecord(r.record, types)]));
  const unstored = ids.filter((id) => !records.has(id));
  for (const [id, record] of await builtRecords(database, unstored, types)) records.set(id, record);
  return records;
}
