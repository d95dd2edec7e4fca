import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Outside sign-ins under way: one row per redirect to a provider, found again by the SHA-256 of the random id in
 * the browser's attempt cookie. In the database, not in memory, so any server process can finish a sign-in;
 * deleted when used (single use) and worthless after expiresAt.
 */
export const oauthAttempts = pgTable(
  'oauth_attempts',
  {
    idHash: text('id_hash').primaryKey(),
    provider: text('provider').notNull(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    /** The PKCE verifier; only its S256 challenge went to the provider. */
    codeVerifier: text('code_verifier').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oauth_attempts_expires_idx').on(t.expiresAt)],
);
