import { integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Versions of the agreement users accept before use (spec §1); the newest is current. Its id is the ndaId. */
export const agreements = pgTable('agreements', {
  id: serial('id').primaryKey(),
  /** Trusted HTML written by the operators. */
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const agreementAcceptances = pgTable(
  'agreement_acceptances',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    agreementId: integer('agreement_id')
      .notNull()
      .references(() => agreements.id),
    ip: text('ip').notNull().default(''),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.agreementId] })],
);
