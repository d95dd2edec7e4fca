import { sql } from 'drizzle-orm';
import { boolean, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** New users whose e-mail ends in this domain may join when acceptUsers is on. */
    emailDomain: text('email_domain'),
    acceptUsers: boolean('accept_users').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('organizations_email_domain_key')
      .on(sql`lower(${t.emailDomain})`)
      .where(sql`${t.deletedAt} is null and ${t.emailDomain} is not null`),
  ],
);
