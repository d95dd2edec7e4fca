/**
 * Audience segments (issue 19, decision 0035): saved audience definitions, the organizations each is assigned to,
 * and `segment_attributes`, one flat row per person holding what a segment filters on. The flat rows are kept by
 * the database itself (triggers on person_records, which every writer of the graph stores last: decision 0017), so
 * a count reads one narrow table instead of joining ten.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { people } from './people';
import { users } from './users';

export const segments = pgTable('segments', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** common/segments.ts SegmentFilters, as read by readSegmentFilters. */
  filters: jsonb('filters').notNull().default(sql`'{}'::jsonb`),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export const segmentOrganizations = pgTable(
  'segment_organizations',
  {
    segmentId: integer('segment_id')
      .notNull()
      .references(() => segments.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.segmentId, t.organizationId] }),
    index('segment_organizations_organization_idx').on(t.organizationId),
  ],
);

/**
 * What segments filter on, one narrow row per person not suppressed, as segment_attributes_refresh() computes it
 * from the graph (decision 0035): bands and gender as their 1-based position in common/segments.ts's lists (0: none
 * or another value), the yes/no attributes as bits of `flags` (SEGMENT_FLAG_BITS), behaviors (each category alone,
 * and each category US name, US being chr(31)) and lowercase company names as 64-bit hashes (hashtextextended).
 */
export const segmentAttributes = pgTable(
  'segment_attributes',
  {
    identityId: bigint('identity_id', { mode: 'number' })
      .primaryKey()
      .references(() => people.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    birthYear: smallint('birth_year'),
    gender: smallint('gender').notNull(),
    income: smallint('income').notNull(),
    netWorth: smallint('net_worth').notNull(),
    credit: smallint('credit').notNull(),
    flags: smallint('flags').notNull(),
    behaviors: bigint('behaviors', { mode: 'number' }).array().notNull(),
    companies: bigint('companies', { mode: 'number' }).array().notNull(),
  },
  (t) => [
    index('segment_attributes_state_idx').on(t.state),
    index('segment_attributes_zip_idx').on(sql`${t.zip} text_pattern_ops`),
    index('segment_attributes_birth_year_idx').on(t.birthYear),
    index('segment_attributes_behaviors_idx').using('gin', t.behaviors),
    index('segment_attributes_companies_idx').using('gin', t.companies),
  ],
);
