/**
 * Streamed PUT lookups running now (issue 28, finding 14), across every server process: a row per stream, claimed
 * before its body is read and deleted when it ends; a row whose lease lapsed (its process died) no longer counts.
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const lookupStreams = pgTable(
  'lookup_streams',
  {
    requestId: text('request_id').primaryKey(),
    /** `key:{id}`, or `user:{id}` for a console session. */
    owner: text('owner').notNull(),
    organizationId: integer('organization_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lookup_streams_owner_idx').on(t.owner), index('lookup_streams_organization_idx').on(t.organizationId)],
);
