/**
 * Usage alerts (issue 16, decision 0029): each organization's settings (none stored: the defaults), and every alert
 * that fired. A firing's key (organization, kind, share, period) is unique, so however many server processes see a
 * threshold crossed at once, exactly one inserts the firing and only that one tells the administrators.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

export const usageAlertSettings = pgTable('usage_alert_settings', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  thresholdsOn: boolean('thresholds_on').notNull().default(true),
  /** Whole percentages of the contract's monthly limit, ascending. */
  thresholds: integer('thresholds').array().notNull().default(sql`'{80,100}'::integer[]`),
  spikeOn: boolean('spike_on').notNull().default(true),
  spikeMultiple: numeric('spike_multiple', { precision: 5, scale: 2, mode: 'number' }).notNull().default(3),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const usageAlertFirings = pgTable(
  'usage_alert_firings',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** 'threshold' or 'spike'. */
    kind: text('kind').notNull(),
    /** The share of the monthly limit reached (threshold); 0 for a spike. */
    share: integer('share').notNull().default(0),
    /** YYYY-MM (threshold) or YYYY-MM-DD (spike), UTC. */
    period: text('period').notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull().defaultNow(),
    spent: numeric('spent', { precision: 18, scale: 6, mode: 'number' }),
    monthlyLimit: numeric('monthly_limit', { precision: 14, scale: 2, mode: 'number' }),
    requests: bigint('requests', { mode: 'number' }),
    average: numeric('average', { precision: 18, scale: 2, mode: 'number' }),
    multiple: numeric('multiple', { precision: 5, scale: 2, mode: 'number' }),
  },
  (t) => [
    uniqueIndex('usage_alert_firings_once_idx').on(t.organizationId, t.kind, t.share, t.period),
    index('usage_alert_firings_recent_idx').on(t.organizationId, t.firedAt),
  ],
);
