/**
 * The identity graph (issue 4): people — the API's "identities" (the table name `identities` holds outside sign-ins)
 * — and the records linked to them, each with when it was first and last seen.
 * Ids are the data's own (bigint, assigned by the generator or the imported file), so a re-import updates in place.
 * Every lookup key has an index; names and street addresses also have trigram and phonetic ones for PII matching.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  inet,
  integer,
  json,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const seen = {
  firstSeen: date('first_seen', { mode: 'string' }),
  lastSeen: date('last_seen', { mode: 'string' }),
};
const identityId = () =>
  bigint('identity_id', { mode: 'number' })
    .notNull()
    .references(() => people.id, { onDelete: 'cascade' });

export const people = pgTable(
  'people',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    firstName: text('first_name').notNull().default(''),
    middleName: text('middle_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    suffix: text('suffix').notNull().default(''),
    /** 'F', 'M' or '' when unknown. */
    gender: text('gender').notNull().default(''),
    birthYear: smallint('birth_year'),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    zip4: text('zip4').notNull().default(''),
    ...seen,
  },
  (t) => [
    index('people_last_name_trgm').using('gin', sql`lower(${t.lastName}) gin_trgm_ops`),
    index('people_last_name_dmetaphone').on(sql`dmetaphone(${t.lastName})`),
    index('people_first_name_dmetaphone').on(sql`dmetaphone(${t.firstName})`),
    index('people_address_trgm').using('gin', sql`lower(${t.address}) gin_trgm_ops`),
    index('people_zip').on(t.zip),
    // A PII query without a ZIP is blocked by house number within its state (see identities/search.ts).
    index('people_state_house').on(t.state, sql`split_part(${t.address}, ' ', 1)`),
  ],
);

/** Earlier addresses of a person (the current one is on `people`), matched like it for stale-address queries. */
export const personAddresses = pgTable(
  'person_addresses',
  {
    identityId: identityId(),
    seq: smallint('seq').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    zip4: text('zip4').notNull().default(''),
    ...seen,
  },
  (t) => [
    primaryKey({ columns: [t.identityId, t.seq] }),
    index('person_addresses_address_trgm').using('gin', sql`lower(${t.address}) gin_trgm_ops`),
    index('person_addresses_zip').on(t.zip),
    index('person_addresses_state_house').on(t.state, sql`split_part(${t.address}, ' ', 1)`),
  ],
);

export const personEmails = pgTable(
  'person_emails',
  {
    identityId: identityId(),
    /** Normalized: trimmed and lowercase. */
    address: text('address').notNull(),
    /** Lowercase hex of the normalized address. */
    md5: text('md5').notNull(),
    sha256: text('sha256').notNull(),
    ...seen,
  },
  (t) => [
    primaryKey({ columns: [t.identityId, t.address] }),
    index('person_emails_address').on(t.address),
    index('person_emails_md5').on(t.md5),
    index('person_emails_sha256').on(t.sha256),
  ],
);

export const personPhones = pgTable(
  'person_phones',
  {
    identityId: identityId(),
    /** E.164, e.g. +14155550123. */
    number: text('number').notNull(),
    /** 'mobile' or 'landline'. */
    type: text('type').notNull().default(''),
    carrier: text('carrier').notNull().default(''),
    doNotCall: boolean('do_not_call').notNull().default(false),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.number] }), index('person_phones_number').on(t.number)],
);

export const personIps = pgTable(
  'person_ips',
  {
    identityId: identityId(),
    ip: inet('ip').notNull(),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.ip] }), index('person_ips_ip').on(t.ip)],
);

export const personDevices = pgTable(
  'person_devices',
  {
    identityId: identityId(),
    /** Advertising id, lowercase with hyphens. */
    deviceId: text('device_id').notNull(),
    /** 'idfa' (Apple) or 'aaid' (Android). */
    type: text('type').notNull(),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.deviceId] }), index('person_devices_device').on(t.deviceId)],
);

export const personVehicles = pgTable(
  'person_vehicles',
  {
    identityId: identityId(),
    /** Uppercase, 17 characters, valid check digit. */
    vin: text('vin').notNull(),
    year: smallint('year'),
    make: text('make').notNull().default(''),
    model: text('model').notNull().default(''),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.vin] }), index('person_vehicles_vin').on(t.vin)],
);

export const personProperties = pgTable(
  'person_properties',
  {
    identityId: identityId(),
    seq: smallint('seq').notNull(),
    type: text('type').notNull(),
    value: integer('value'),
    ownerOccupied: boolean('owner_occupied').notNull().default(false),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.seq] })],
);

export const personFinances = pgTable('person_finances', {
  identityId: identityId().primaryKey(),
  income: text('income').notNull().default(''),
  netWorth: text('net_worth').notNull().default(''),
  credit: text('credit').notNull().default(''),
  ...seen,
});

export const personCompanies = pgTable(
  'person_companies',
  {
    identityId: identityId(),
    seq: smallint('seq').notNull(),
    name: text('name').notNull(),
    domain: text('domain').notNull().default(''),
    title: text('title').notNull().default(''),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.seq] })],
);

export const personBehaviors = pgTable(
  'person_behaviors',
  {
    identityId: identityId(),
    category: text('category').notNull(),
    name: text('name').notNull(),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.category, t.name] })],
);

/** Demographic attributes, one per key. */
export const personData = pgTable(
  'person_data',
  {
    identityId: identityId(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...seen,
  },
  (t) => [primaryKey({ columns: [t.identityId, t.key] })],
);

/**
 * Opt-outs, applied to every lookup and kept across re-imports: an e-mail address, phone number, e-mail hash or
 * identity id, normalized as lookups normalize them. A suppressed person looks exactly like an unknown one.
 */
export const suppressions = pgTable(
  'suppressions',
  {
    /** 'email', 'phone', 'md5', 'sha256' or 'identity'. */
    kind: text('kind').notNull(),
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Issue 22 (migration 0025): the id staff name it by, where it came from, who added it, which request. */
    id: bigint('id', { mode: 'number' }).generatedByDefaultAsIdentity().notNull().unique('suppressions_id_unique'),
    source: text('source').notNull().default('staff'),
    createdBy: integer('created_by'),
    requestId: bigint('request_id', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.value] }), index('suppressions_created_idx').on(t.createdAt)],
);

/**
 * Each person's lookup record (identities/record-sql.ts) as built from the tables above, kept so a lookup reads one
 * row instead of building it from ten tables (decision 0017). The import stores a batch's records in the batch's
 * transaction; a change to the suppressions drops the records it touches (a trigger). A lookup uses a stored record
 * only when its `version` is the builder's (RECORD_VERSION) and builds the others from the tables.
 */
export const personRecords = pgTable('person_records', {
  identityId: identityId().primaryKey(),
  version: smallint('version').notNull(),
  record: json('record').notNull(),
});
