/** Support Chat (issue 18, decision 0032): conversations, their messages, and which processes have staff online. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    /** The first user message staff have not answered yet; null when nothing waits. */
    awaitingSince: timestamp('awaiting_since', { withTimezone: true }),
    /** Set when the wait since `awaiting_since` was mailed to the support address (once per wait). */
    unansweredMailedAt: timestamp('unanswered_mailed_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id),
    /** The last message id each side has read. */
    userReadId: integer('user_read_id').notNull().default(0),
    staffReadId: integer('staff_read_id').notNull().default(0),
  },
  (t) => [
    uniqueIndex('chat_conversations_one_open').on(t.userId).where(sql`${t.status} = 'open'`),
    index('chat_conversations_user_idx').on(t.userId),
    index('chat_conversations_last_idx').on(t.lastMessageAt),
    check('chat_conversations_status_check', sql`${t.status} in ('open', 'closed')`),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    fromStaff: boolean('from_staff').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_conversation_idx').on(t.conversationId, t.id)],
);

/** One row per server process: how many staff sockets it holds on the queue channel, refreshed by heartbeat. */
export const chatPresence = pgTable('chat_presence', {
  processId: text('process_id').primaryKey(),
  staff: integer('staff').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});
