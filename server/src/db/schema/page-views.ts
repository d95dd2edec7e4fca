import { bigint, bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One row per socket `hit`: the console's own navigation analytics. Query values are not kept. */
export const pageViews = pgTable(
  'page_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    journeyId: uuid('journey_id').notNull(),
    sessionId: bigint('session_id', { mode: 'number' }),
    userId: integer('user_id'),
    hitIndex: integer('hit_index').notNull(),
    url: text('url').notNull(),
  },
  (t) => [index('page_views_journey_idx').on(t.journeyId), index('page_views_at_idx').on(t.at)],
);
