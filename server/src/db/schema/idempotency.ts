/**
 * Idempotency keys of the lookup API (issue 5): a POST or PUT sent with `Idempotency-Key` is answered once; a repeat
 * within 24 hours gets the stored reply and is not charged again.
 */
import { boolean, customType, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `key:{api key id}` or `user:{user id}` for a console session. */
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path, query and body; null until a streamed body has been read. */
    requestHash: text('request_hash'),
    /** running, done */
    state: text('state').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    contentDisposition: text('content_disposition'),
    body: bytea('body'),
    /** The reply was too large to keep: served and charged once, but it cannot be replayed. */
    tooLarge: boolean('too_large').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
