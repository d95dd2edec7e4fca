import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * TOTP two-factor sign-in (issue 32, decision 0063): one row per user who started enrolment. The secret is sealed
 * with the key-encryption key (decision 0015) and never sent again after the enrolment reply; enabledAt is null
 * until the first code confirms it. lastTimeStep is the newest RFC 6238 step a code was accepted for: a code of
 * that step or an older one is a replay.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes: only their SHA-256 is kept; usedAt marks one spent. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * Sign-ins waiting for their second factor: the password (or an outside provider) said yes, the code is still to
 * come. Found by the SHA-256 of the random id in the browser's cookie, in the database so any server process can
 * finish it; worthless after expiresAt, deleted when used or after too many wrong codes.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    /** Where the browser goes once signed in (a path on this site, already checked). */
    returnTo: text('return_to'),
    /** The outside provider that vouched for the first factor, or null for the password. */
    provider: text('provider'),
    failures: integer('failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('two_factor_challenges_expires_idx').on(t.expiresAt)],
);
