/**
 * Releases, deployments and their tasks (issue 21, decision 0038). At most one unfinished deployment per
 * environment: a partial unique index is the lock, so it holds across processes and restarts. Tasks are keyed by
 * `{deploymentId}:{host}:{step}`; `heartbeat_at` tells a live runner's deployment from one a dead process left.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const releases = pgTable(
  'releases',
  {
    id: serial('id').primaryKey(),
    version: text('version').notNull(),
    notes: text('notes').notNull().default(''),
    commit: text('commit').notNull(),
    /** The artifact's file name inside RELEASES_DIR. */
    artifact: text('artifact').notNull(),
    artifactSize: bigint('artifact_size', { mode: 'number' }).notNull(),
    artifactSha256: text('artifact_sha256').notNull(),
    /** 'draft' or 'published'. */
    status: text('status').notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('releases_version_unique').on(t.version)],
);

export const deployments = pgTable(
  'deployments',
  {
    id: serial('id').primaryKey(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id),
    environment: text('environment').notNull(),
    hosts: text('hosts').array().notNull(),
    /** 'running', 'succeeded', 'failed' or 'cancelled'. */
    status: text('status').notNull().default('running'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by a cancel on any process; the runner, wherever it is, stops the deployment at its next beat. */
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deployments_environment_lock').on(t.environment).where(sql`${t.finishedAt} is null`),
    index('deployments_release_idx').on(t.releaseId),
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    key: text('key').primaryKey(),
    deploymentId: integer('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    step: text('step').notNull(),
    /** The host's place in the environment's order: batches are runs of `parallelism` positions. */
    position: integer('position').notNull(),
    /** 'queued', 'running', 'succeeded', 'failed' or 'cancelled'. */
    status: text('status').notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    exitCode: integer('exit_code'),
    /** The command's last TASK_OUTPUT_MAX_BYTES of output. */
    output: text('output').notNull().default(''),
  },
  (t) => [index('tasks_deployment_idx').on(t.deploymentId, t.position)],
);
