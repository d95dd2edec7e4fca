import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    title: text('title').notNull().default(''),
    image: text('image').notNull().default(''),
    role: text('role').notNull().default('user'),
    organizationId: integer('organization_id').references(() => organizations.id),
    isActive: boolean('is_active').notNull().default(true),
    allowedRecordTypes: text('allowed_record_types').array().notNull().default(sql`'{}'::text[]`),
    /** argon2id PHC string; null until the user sets a password. */
    passwordHash: text('password_hash'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    index('users_organization_idx').on(t.organizationId),
    check('users_role_check', sql`${t.role} in ('anonymous', 'resetter', 'signer', 'user', 'admin', 'super', 'root')`),
  ],
);
