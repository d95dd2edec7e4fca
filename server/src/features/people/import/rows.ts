/**
 * An identity record as table rows: `people` plus one list per `person_*` table, keyed by column name in table
 * order. E-mails gain md5 and sha256 of the normalized address; properties and companies are numbered by position
 * (`seq` from 1); the previous address moves from `data` to `person_addresses` (seq 1), dated like the person.
 */
import { hash } from 'node:crypto';
import { type IdentityRecord, PREVIOUS_ADDRESS_KEYS } from '../record';

export type Row = Record<string, string | number | boolean | null>;

/** The linked tables in the order they are written; all are replaced for every person a batch holds. */
export const LINKED_TABLES = [
  'person_addresses',
  'person_emails',
  'person_phones',
  'person_ips',
  'person_devices',
  'person_vehicles',
  'person_properties',
  'person_finances',
  'person_companies',
  'person_behaviors',
  'person_data',
] as const;
export type LinkedTable = (typeof LINKED_TABLES)[number];
export type Table = 'people' | LinkedTable;

/** Column names of each table in table order (what COPY and json_populate_recordset expect). */
export const COLUMNS: Record<Table, readonly string[]> = {
  people: [
    'id',
    'first_name',
    'middle_name',
    'last_name',
    'suffix',
    'gender',
    'birth_year',
    'address',
    'city',
    'state',
    'zip',
    'zip4',
    'first_seen',
    'last_seen',
  ],
  person_addresses: ['identity_id', 'seq', 'address', 'city', 'state', 'zip', 'zip4', 'first_seen', 'last_seen'],
  person_emails: ['identity_id', 'address', 'md5', 'sha256', 'first_seen', 'last_seen'],
  person_phones: ['identity_id', 'number', 'type', 'carrier', 'do_not_call', 'first_seen', 'last_seen'],
  person_ips: ['identity_id', 'ip', 'first_seen', 'last_seen'],
  person_devices: ['identity_id', 'device_id', 'type', 'first_seen', 'last_seen'],
  person_vehicles: ['identity_id', 'vin', 'year', 'make', 'model', 'first_seen', 'last_seen'],
  person_properties: ['identity_id', 'seq', 'type', 'value', 'owner_occupied', 'first_seen', 'last_seen'],
  person_finances: ['identity_id', 'income', 'net_worth', 'credit', 'first_seen', 'last_seen'],
  person_companies: ['identity_id', 'seq', 'name', 'domain', 'title', 'first_seen', 'last_seen'],
  person_behaviors: ['identity_id', 'category', 'name', 'first_seen', 'last_seen'],
  person_data: ['identity_id', 'key', 'value', 'first_seen', 'last_seen'],
};

/** Rows of every table, values in COLUMNS order. */
export type TableRows = Record<Table, unknown[][]>;

export function emptyRows(): TableRows {
  return Object.fromEntries(['people', ...LINKED_TABLES].map((t) => [t, []])) as unknown as TableRows;
}

// crypto.hash (one shot) rather than createHash: half the time, and a batch hashes every e-mail twice.
export const md5Hex = (text: string) => hash('md5', text, 'hex');
export const sha256Hex = (text: string) => hash('sha256', text, 'hex');

const PREVIOUS = new Set<string>(Object.values(PREVIOUS_ADDRESS_KEYS));

/** Hands every row of `r` to `emit`, table by table in LINKED_TABLES order after `people`. */
export function forEachRow(r: IdentityRecord, emit: (table: Table, row: unknown[]) => void): void {
  const id = r.id;
  emit('people', [
    id,
    r.firstName,
    r.middleName,
    r.lastName,
    r.suffix,
    r.gender,
    r.birthYear,
    r.address,
    r.city,
    r.state,
    r.zip,
    r.zip4,
    r.firstSeen,
    r.lastSeen,
  ]);
  const previous = r.data[PREVIOUS_ADDRESS_KEYS.address];
  if (previous) {
    const d = r.data;
    emit('person_addresses', [
      id,
      1,
      previous,
      d[PREVIOUS_ADDRESS_KEYS.city] ?? '',
      d[PREVIOUS_ADDRESS_KEYS.state] ?? '',
      d[PREVIOUS_ADDRESS_KEYS.zip] ?? '',
      '',
      r.firstSeen,
      r.lastSeen,
    ]);
  }
  for (const e of r.emails) {
    emit('person_emails', [id, e.address, md5Hex(e.address), sha256Hex(e.address), e.firstSeen, e.lastSeen]);
  }
  for (const p of r.phones) {
    emit('person_phones', [id, p.number, p.type, p.carrier, p.doNotCall, p.firstSeen, p.lastSeen]);
  }
  for (const i of r.ips) emit('person_ips', [id, i.ip, i.firstSeen, i.lastSeen]);
  for (const d of r.devices) emit('person_devices', [id, d.deviceId, d.type, d.firstSeen, d.lastSeen]);
  for (const v of r.vehicles) emit('person_vehicles', [id, v.vin, v.year, v.make, v.model, v.firstSeen, v.lastSeen]);
  r.properties.forEach((p, i) => {
    emit('person_properties', [id, i + 1, p.type, p.value, p.ownerOccupied, p.firstSeen, p.lastSeen]);
  });
  if (r.finances) {
    const f = r.finances;
    emit('person_finances', [id, f.income, f.netWorth, f.credit, r.firstSeen, r.lastSeen]);
  }
  r.companies.forEach((c, i) => {
    emit('person_companies', [id, i + 1, c.name, c.domain, c.title, c.firstSeen, c.lastSeen]);
  });
  for (const b of r.behaviors) emit('person_behaviors', [id, b.category, b.name, b.firstSeen, b.lastSeen]);
  for (const [key, value] of Object.entries(r.data)) {
    if (!PREVIOUS.has(key)) emit('person_data', [id, key, value, r.firstSeen, r.lastSeen]);
  }
}

/** Appends the rows of `r` to `into`. */
export function addRecordRows(r: IdentityRecord, into: TableRows): void {
  forEachRow(r, (table, row) => {
    into[table].push(row);
  });
}
