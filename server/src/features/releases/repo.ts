/** Releases' SQL. */
import type { Release } from '@tessera/common/deployments';
import { desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { deployments, releases } from '../../db/schema';
import { renderNotes } from './notes';

type Row = typeof releases.$inferSelect;

export function toRelease(row: Row): Release {
  return {
    id: row.id,
    version: row.version,
    notes: row.notes,
    notesHtml: renderNotes(row.notes),
    commit: row.commit,
    artifact: row.artifact,
    artifactSize: row.artifactSize,
    artifactSha256: row.artifactSha256,
    status: row.status as Release['status'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

export async function listReleases(db: Executor): Promise<Row[]> {
  return db.select().from(releases).orderBy(desc(releases.id));
}

export async function findReleases(db: Executor, ids: number[], lock = false): Promise<Row[]> {
  const query = db.select().from(releases).where(inArray(releases.id, ids));
  return lock ? query.for('update') : query;
}

export async function findRelease(db: Executor, id: number, lock = false): Promise<Row | undefined> {
  return (await findReleases(db, [id], lock))[0];
}

export async function versionTaken(db: Executor, version: string, except = 0): Promise<boolean> {
  const [row] = await db.select({ id: releases.id }).from(releases).where(eq(releases.version, version));
  return row !== undefined && row.id !== except;
}

export async function insertRelease(db: Executor, values: typeof releases.$inferInsert): Promise<Row> {
  const [row] = await db.insert(releases).values(values).returning();
  return row!;
}

export async function updateRelease(db: Executor, id: number, values: Partial<typeof releases.$inferInsert>) {
  const [row] = await db
    .update(releases)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(releases.id, id))
    .returning();
  return row!;
}

export async function deleteReleases(db: Executor, ids: number[]): Promise<void> {
  await db.delete(releases).where(inArray(releases.id, ids));
}

export async function hasDeployments(db: Executor, ids: number[]): Promise<boolean> {
  const [row] = await db
    .select({ id: deployments.id })
    .from(deployments)
    .where(inArray(deployments.releaseId, ids))
    .limit(1);
  return row !== undefined;
}
