/**
 * The SQL that builds lookup identity records (docs/identity-record.md, as templates see them), each one JSON value:
 * the person with every linked record, stored by the import in person_records (decision 0017). Record types a
 * caller is not allowed come back empty (restrictRecord). Suppressed e-mails (by address or hash) and phones are
 * left out, as if they were not in the graph.
 */
import { RECORD_TYPES, type RecordType } from '@tessera/common/record-types';

const seen = (a: string) => `'firstSeen', ${a}.first_seen, 'lastSeen', ${a}.last_seen`;

/** True when the suppression list holds any of the (kind, value) pairs, given as SQL row constructors. */
export const suppressedSql = (...pairs: string[]) =>
  `exists (select 1 from suppressions s where (s.kind, s.value) in (${pairs.join(', ')}))`;

/**
 * A part of the record read from one linked table: `value` aggregates the rows (aliased `alias`) of one person that
 * pass `where`; `grouped` false when the table has one row a person at most. `empty` stands in for a person with
 * none. Each part is read for the people wanted, grouped by person and joined (buildRecordsSql).
 */
interface Part {
  table: string;
  alias: string;
  value: string;
  where?: string;
  grouped: boolean;
  empty: string;
}

const list = (table: string, alias: string, fields: string, order: string, where?: string): Part => ({
  table,
  alias,
  value: `json_agg(json_build_object(${fields}) order by ${order})`,
  where,
  grouped: true,
  empty: `'[]'::json`,
});

const PARTS = {
  emails: list(
    'person_emails',
    'e',
    `'address', e.address, 'md5', e.md5, 'sha256', e.sha256, ${seen('e')}`,
    'e.last_seen desc nulls last, e.address',
    `not ${suppressedSql("('email', e.address)", "('md5', e.md5)", "('sha256', e.sha256)")}`,
  ),
  phones: list(
    'person_phones',
    'f',
    `'number', f.number, 'type', f.type, 'carrier', f.carrier, 'doNotCall', f.do_not_call, ${seen('f')}`,
    'f.last_seen desc nulls last, f.number',
    `not ${suppressedSql("('phone', f.number)")}`,
  ),
  ips: list('person_ips', 'i', `'ip', host(i.ip), ${seen('i')}`, 'i.last_seen desc nulls last, i.ip'),
  devices: list(
    'person_devices',
    'd',
    `'deviceId', d.device_id, 'type', d.type, ${seen('d')}`,
    'd.last_seen desc nulls last, d.device_id',
  ),
  vehicles: list(
    'person_vehicles',
    'v',
    `'vin', v.vin, 'year', v.year, 'make', v.make, 'model', v.model, ${seen('v')}`,
    'v.last_seen desc nulls last, v.vin',
  ),
  properties: list(
    'person_properties',
    'r',
    `'type', r.type, 'value', r.value, 'ownerOccupied', r.owner_occupied, ${seen('r')}`,
    'r.seq',
  ),
  finances: {
    table: 'person_finances',
    alias: 'x',
    value: `json_build_object('income', x.income, 'netWorth', x.net_worth, 'credit', x.credit)`,
    grouped: false,
    empty: 'null::json',
  },
  companies: list(
    'person_companies',
    'c',
    `'name', c.name, 'domain', c.domain, 'title', c.title, ${seen('c')}`,
    'c.seq',
  ),
  behaviors: list(
    'person_behaviors',
    'b',
    `'category', b.category, 'name', b.name, ${seen('b')}`,
    'b.category, b.name',
  ),
  attributes: {
    table: 'person_data',
    alias: 'k',
    value: 'jsonb_object_agg(k.key, k.value)',
    grouped: true,
    empty: `'{}'::jsonb`,
  },
  // The previous address lives in person_addresses (it is matched like the current one); the record shows it in
  // `data` as the import took it.
  previous: {
    table: 'person_addresses',
    alias: 'a',
    value: `jsonb_build_object('previousAddress', a.address, 'previousCity', a.city, 'previousState', a.state,
      'previousZip', a.zip)`,
    where: 'a.seq = 1',
    grouped: false,
    empty: `'{}'::jsonb`,
  },
} satisfies Record<string, Part>;
type PartName = keyof typeof PARTS;

/** The record's linked fields, given how to read a part. */
function linked(read: (name: PartName) => string): Record<RecordType, string> {
  return {
    emails: read('emails'),
    phones: read('phones'),
    ips: read('ips'),
    devices: read('devices'),
    vehicles: read('vehicles'),
    properties: read('properties'),
    finances: read('finances'),
    companies: read('companies'),
    behaviors: read('behaviors'),
    data: `(${read('attributes')} || ${read('previous')})::json`,
  };
}

/** What a record shows for a linked part the caller may not see (and a person with none of it). */
const EMPTY: Record<RecordType, () => unknown> = {
  emails: () => [],
  phones: () => [],
  ips: () => [],
  devices: () => [],
  vehicles: () => [],
  properties: () => [],
  finances: () => null,
  companies: () => [],
  behaviors: () => [],
  data: () => ({}),
};

/** The documented order of the record's linked parts. */
const ORDER: readonly RecordType[] = [
  'emails',
  'phones',
  'ips',
  'devices',
  'vehicles',
  'properties',
  'finances',
  'companies',
  'behaviors',
  'data',
];

/** Every record type, or only those in `allowed` when it is not empty (spec §3: an empty list means all). */
export function visibleTypes(allowed: readonly string[]): Set<RecordType> {
  return new Set(allowed.length === 0 ? RECORD_TYPES : RECORD_TYPES.filter((t) => allowed.includes(t)));
}

/**
 * The records of the people `match` selects (a condition on a column, given the column; none: everyone), built
 * from the tables: each linked table read for those people and grouped, then joined. Rows `p.id, record`, the
 * record as one json value. Fixed text: nothing of a caller's gets in.
 */
export function buildRecordsSql(match?: (column: string) => string): string {
  const joins = (Object.keys(PARTS) as PartName[]).map((name) => {
    const { table, alias, value, where, grouped } = PARTS[name] as Part;
    const conditions = [match?.(`${alias}.identity_id`), where].filter(Boolean);
    return `left join (select ${alias}.identity_id, ${value} as v from ${table} ${alias}
      ${conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''} ${grouped ? 'group by 1' : ''}
    ) as j_${name} on j_${name}.identity_id = p.id`;
  });
  const parts = linked((name) => `coalesce(j_${name}.v, ${(PARTS[name] as Part).empty})`);
  return `select p.id, json_build_object(
  'id', p.id, 'firstName', p.first_name, 'middleName', p.middle_name, 'lastName', p.last_name,
  'suffix', p.suffix, 'gender', p.gender, 'birthYear', p.birth_year, 'address', p.address, 'city', p.city,
  'state', p.state, 'zip', p.zip, 'zip4', p.zip4, ${seen('p')},
  ${ORDER.map((t) => `'${t}', ${parts[t]}`).join(',\n  ')}) as record
from people p
${joins.join('\n')}
${match ? `where ${match('p.id')}` : ''}`;
}

/**
 * Taken by a writer of stored records before it builds them, until its commit: a suppression written meanwhile
 * waits, then its trigger sees the records and drops them; one committed before is in the build. Without it, a
 * suppression committed while a batch runs could miss the batch's records and they would keep what it suppressed.
 */
export const LOCK_SUPPRESSIONS = 'lock table suppressions in share mode';

/**
 * The version of the record buildRecordsSql builds. Stored records of another version are not used (their people are
 * built from the tables) until an import stores them again: a change to the builder bumps it (a test holds them
 * together), so no lookup serves a record in an old shape.
 */
export const RECORD_VERSION = 1;

/**
 * Stores the records of the people `match` selects (see buildRecordsSql) as built now; a record that has not
 * changed is not written again. The import runs it in each batch's transaction, and a bulk load once for everyone.
 * The same statement catches the changes of subscribed identities (decision 0067): every part of one statement sees
 * the snapshot from before the upsert, so `subscribed` and `previous` read the old records of the batch's subscribed
 * identities (one probe of the subscriptions' identity index when there are none), and each whose stored record
 * really changed gets an `identity_changes` row holding the old one, committed with the batch or not at all.
 */
export const storeRecordsSql = (match?: (column: string) => string) => `with subscribed as (
  select distinct s.identity_id from identity_subscriptions s
  where s.deleted_at is null ${match ? `and ${match('s.identity_id')}` : ''}
), previous as (
  select r.identity_id, r.record::text as record from person_records r
  where r.identity_id in (select identity_id from subscribed)
), stored as (
  insert into person_records (identity_id, version, record)
  select b.id, ${RECORD_VERSION}, b.record from (${buildRecordsSql(match)}) b
  on conflict (identity_id) do update set version = excluded.version, record = excluded.record
  where person_records.version <> excluded.version or person_records.record::text <> excluded.record::text
  -- Only a subscribed identity's record is carried out of the upsert: the others cost an id each.
  returning identity_id,
    case when identity_id in (select identity_id from subscribed) then record::text end as record
)
-- A record stored anew (none before: dropped by a suppression, whose own change was caught then) is no change to
-- tell: against nothing, every path would read as added.
insert into identity_changes (identity_id, old_record, cause)
select t.identity_id, p.record::json, 'import' from stored t
  join subscribed u on u.identity_id = t.identity_id
  join previous p on p.identity_id = t.identity_id
where p.record is distinct from t.record`;

/** The record as a caller allowed only `types` sees it: the other linked parts empty, as if the person had none. */
export function restrictRecord<T extends Record<string, unknown>>(record: T, types: Set<RecordType>): T {
  if (types.size === RECORD_TYPES.length) return record;
  const out: Record<string, unknown> = { ...record };
  for (const t of RECORD_TYPES) if (!types.has(t)) out[t] = EMPTY[t]();
  return out as T;
}
