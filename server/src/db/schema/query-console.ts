/**
 * The read-only query console (issue 20): each user's runs (their history, kept while running so any process can
 * cancel one), their saved queries, and the step-up record of a session whose password was confirmed.
 */
import { bigint, bigserial, index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions } from './sessions';
import { users } from './users';

export const queryRuns = pgTable(
  'query_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Chosen by the browser, so it can cancel the run before the reply arrives. */
    runId: uuid('run_id').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cluster: text('cluster').notNull(),
    sql: text('sql').notNull(),
    /** running, ok, error, timeout, cancelled or refused. */
    outcome: text('outcome').notNull().default('running'),
    rowCount: integer('row_count'),
    ms: integer('ms'),
    error: text('error'),
    /** The PostgreSQL backend running it, while it runs (pg_cancel_backend). */
    backendPid: integer('backend_pid'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('query_runs_user_idx').on(t.userId, t.startedAt)],
);

export const savedQueries = pgTable(
  'saved_queries',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    cluster: text('cluster').notNull(),
    sql: text('sql').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_queries_user_idx').on(t.userId)],
);

/** Step-up: when the session's password was last confirmed, and when the console was last used under it. */
export const sessionConfirmations = pgTable('session_confirmations', {
  sessionId: bigint('session_id', { mode: 'number' })
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
});
