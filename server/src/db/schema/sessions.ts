import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Console sessions. Only the SHA-256 of the cookie token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The real user while impersonating. */
    impersonatorId: integer('impersonator_id').references(() => users.id),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    remember: boolean('remember').notNull().default(false),
    /** 'full', or 'reset' / 'set' for a session from such an e-mailed link, which can only set its password. */
    scope: text('scope').notNull().default('full'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);
