/** Segments' SQL: the saved definitions and their organizations, and counts and members over segment_attributes. */
import type { Segment, SegmentFilters, SegmentMember } from '@tessera/common/segments';
import { SEGMENT_LIMITS } from '@tessera/common/segments';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { organizations, segmentOrganizations, segments } from '../../db/schema';
import { countSql, pageSql } from './filter-sql';

type Row = typeof segments.$inferSelect;

function toSegment(row: Row, organizationIds: number[]): Segment {
  return {
    id: row.id,
    name: row.name,
    filters: row.filters as SegmentFilters,
    organizationIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt ? row.deletedAt.toISOString() : null,
  };
}

async function withOrganizations(db: Executor, rows: Row[]): Promise<Segment[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(segmentOrganizations)
    .where(
      inArray(
        segmentOrganizations.segmentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(segmentOrganizations.organizationId));
  return rows.map((r) =>
    toSegment(
      r,
      links.filter((l) => l.segmentId === r.id).map((l) => l.organizationId),
    ),
  );
}

/** Every segment not deleted (super+), or those assigned to `organizationId`. */
export async function listSegments(db: Executor, organizationId?: number | null): Promise<Segment[]> {
  if (organizationId === null) return [];
  const rows =
    organizationId === undefined
      ? await db.select().from(segments).where(isNull(segments.deletedAt)).orderBy(asc(segments.name), asc(segments.id))
      : await db
          .select({ s: segments })
          .from(segments)
          .innerJoin(segmentOrganizations, eq(segmentOrganizations.segmentId, segments.id))
          .where(and(isNull(segments.deletedAt), eq(segmentOrganizations.organizationId, organizationId)))
          .orderBy(asc(segments.name), asc(segments.id))
          .then((r) => r.map((x) => x.s));
  return withOrganizations(db, rows);
}

export async function findSegment(db: Executor, id: number, forUpdate = false): Promise<Segment | null> {
  const query = db
    .select()
    .from(segments)
    .where(and(eq(segments.id, id), isNull(segments.deletedAt)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ? ((await withOrganizations(db, [row]))[0] ?? null) : null;
}

/** The ids among `ids` that are no organization. */
export async function unknownOrganizations(db: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, ids));
  const known = new Set(found.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

async function assign(db: Executor, segmentId: number, organizationIds: number[]): Promise<void> {
  await db.delete(segmentOrganizations).where(eq(segmentOrganizations.segmentId, segmentId));
  if (organizationIds.length > 0) {
    await db
      .insert(segmentOrganizations)
      .values(organizationIds.map((organizationId) => ({ segmentId, organizationId })));
  }
}

export async function insertSegment(
  db: Executor,
  values: { name: string; filters: SegmentFilters; organizationIds: number[]; createdBy: number },
): Promise<Segment> {
  const [row] = await db
    .insert(segments)
    .values({ name: values.name, filters: values.filters, createdBy: values.createdBy })
    .returning();
  await assign(db, row!.id, values.organizationIds);
  return toSegment(
    row!,
    [...values.organizationIds].sort((a, b) => a - b),
  );
}

export async function updateSegment(
  db: Executor,
  id: number,
  change: { name?: string; filters?: SegmentFilters; organizationIds?: number[] },
): Promise<void> {
  await db
    .update(segments)
    .set({
      ...(change.name !== undefined && { name: change.name }),
      ...(change.filters !== undefined && { filters: change.filters }),
      updatedAt: sql`now()`,
    })
    .where(eq(segments.id, id));
  if (change.organizationIds) await assign(db, id, change.organizationIds);
}

export async function deleteSegment(db: Executor, id: number): Promise<string> {
  const [row] = await db
    .update(segments)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(segments.id, id))
    .returning({ deletedAt: segments.deletedAt });
  await db.delete(segmentOrganizations).where(eq(segmentOrganizations.segmentId, id));
  return row!.deletedAt!.toISOString();
}

/** People the filters select (suppressed people never). Planned for its values: its best plan depends on them. */
export async function countMembers(database: Database, filters: SegmentFilters): Promise<number> {
  const { text, params } = countSql(filters);
  const [row] = await database.query<{ count: number }>(text, params, { customPlan: true });
  return row?.count ?? 0;
}

/** The next `limit` member ids after `after`, in id order. */
export async function memberIds(
  database: Database,
  filters: SegmentFilters,
  after: number,
  limit: number,
): Promise<number[]> {
  const { text, params } = pageSql(filters, after, limit);
  const rows = await database.query<{ id: string | number }>(text, params, { customPlan: true });
  return rows.map((r) => Number(r.id));
}

/** The first members (by id) as a preview shows them. */
export async function previewMembers(database: Database, filters: SegmentFilters): Promise<SegmentMember[]> {
  const ids = await memberIds(database, filters, 0, SEGMENT_LIMITS.preview);
  if (ids.length === 0) return [];
  const rows = await database.query<SegmentMember & { id: string | number }>(
    `select p.id, p.first_name as "firstName", p.last_name as "lastName", p.gender, p.birth_year as "birthYear",
       p.city, p.state, p.zip
     from people p where p.id = any($1::bigint[]) order by p.id`,
    [ids.map(String)],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
