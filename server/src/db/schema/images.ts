import { customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded pictures (user avatars), named by their content hash and extension as the console sends them (spec §7).
 * In the database rather than DATA_DIR so every server process can serve them.
 */
export const images = pgTable(
  'images',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('images_uploaded_by_idx').on(t.uploadedBy)],
);
