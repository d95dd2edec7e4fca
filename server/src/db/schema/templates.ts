/**
 * Output templates (issue 4): a JSONata expression over the identity record, kept as numbered versions. The API
 * uses a template's latest published version; drafts wait for the console's authoring page. System templates
 * (organization null) are seeded by migration and shared with everyone.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { users } from './users';

export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Null for a system template, shared with every organization. */
    organizationId: integer('organization_id').references(() => organizations.id),
    createdBy: integer('created_by').references(() => users.id),
    /** Spec §3: user or organization ids allowed to edit it besides its organization's administrators. */
    adminIds: integer('admin_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('templates_organization_idx').on(t.organizationId)],
);

export const templateVersions = pgTable(
  'template_versions',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    expression: text('expression').notNull(),
    /** Null while a draft. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version] })],
);
