/** Messages written through Contact Us (issue 18): kept for staff to read and mark handled. */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull().default(''),
    phone: text('phone').notNull().default(''),
    message: text('message').notNull(),
    /** The signed-in writer, if any. */
    userId: integer('user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: integer('handled_by').references(() => users.id),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);
