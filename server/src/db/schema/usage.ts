/**
 * Usage (issue 4 hands every lookup's metrics here; issue 5 adds cost, group commit and rollups): one row per
 * lookup call, with the spec §3 metrics it produced. Exactly once by request id.
 */
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const metric = (name: string) => integer(name).notNull().default(0);

export const usage = pgTable(
  'usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    requestId: text('request_id').notNull(),
    userId: integer('user_id').notNull(),
    organizationId: integer('organization_id'),
    /** The API key used, or null for a console session (the playground). */
    keyId: text('key_id'),
    method: text('method').notNull(),
    /** The endpoint, e.g. '/byEmail'. */
    path: text('path').notNull(),
    status: integer('status').notNull(),
    inputs: metric('inputs'),
    inputsWithIdentities: metric('inputs_with_identities'),
    identities: metric('identities'),
    identitiesWithBehaviors: metric('identities_with_behaviors'),
    identitiesWithData: metric('identities_with_data'),
    identitiesWithDevices: metric('identities_with_devices'),
    identitiesWithEmails: metric('identities_with_emails'),
    identitiesWithIps: metric('identities_with_ips'),
    identitiesWithPhones: metric('identities_with_phones'),
    identitiesWithProperties: metric('identities_with_properties'),
    identitiesWithVehicles: metric('identities_with_vehicles'),
    identitiesWithFinances: metric('identities_with_finances'),
    identitiesWithCompanies: metric('identities_with_companies'),
    behaviors: metric('behaviors'),
    devices: metric('devices'),
    emails: metric('emails'),
    ips: metric('ips'),
    phones: metric('phones'),
    properties: metric('properties'),
    vehicles: metric('vehicles'),
    companies: metric('companies'),
    bestMatchScores: metric('best_match_scores'),
    milliseconds: metric('milliseconds'),
  },
  (t) => [
    uniqueIndex('usage_request_idx').on(t.requestId),
    index('usage_organization_at_idx').on(t.organizationId, t.at),
    index('usage_user_at_idx').on(t.userId, t.at),
  ],
);
