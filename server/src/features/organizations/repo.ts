import type { Organization } from '@tessera/common/entities';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organizations, users } from '../../db/schema';

type OrganizationRow = typeof organizations.$inferSelect;

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    emailDomain: row.emailDomain,
    acceptUsers: row.acceptUsers,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const live = isNull(organizations.deletedAt);

export async function listOrganizations(db: Executor, onlyId?: number | null): Promise<Organization[]> {
  if (onlyId === null) return [];
  const rows = await db
    .select()
    .from(organizations)
    .where(onlyId === undefined ? live : and(live, eq(organizations.id, onlyId)))
    .orderBy(asc(organizations.name), asc(organizations.id));
  return rows.map(toOrganization);
}

export async function findOrganization(db: Executor, id: number): Promise<OrganizationRow | null> {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(live, eq(organizations.id, id)))
    .limit(1);
  return row ?? null;
}

/** The live organization already using a domain (case-insensitive), other than `exceptId`. */
export async function findByDomain(db: Executor, domain: string, exceptId?: number): Promise<OrganizationRow | null> {
  const [row] = await db
    .select()
    .from(organizations)
    .where(
      and(
        live,
        sql`lower(${organizations.emailDomain}) = lower(${domain})`,
        exceptId === undefined ? undefined : sql`${organizations.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export interface OrganizationValues {
  name?: string;
  emailDomain?: string | null;
  acceptUsers?: boolean;
}

export async function insertOrganization(db: Executor, values: Required<OrganizationValues>) {
  const [row] = await db.insert(organizations).values(values).returning();
  return row!;
}

export async function updateOrganization(db: Executor, id: number, values: OrganizationValues) {
  const [row] = await db
    .update(organizations)
    .set({ ...values, updatedAt: new Date() })
    .where(and(live, eq(organizations.id, id)))
    .returning();
  return row ?? null;
}

export async function markOrganizationDeleted(db: Executor, id: number): Promise<Date | null> {
  const [row] = await db
    .update(organizations)
    .set({ deletedAt: new Date(), acceptUsers: false })
    .where(and(live, eq(organizations.id, id)))
    .returning({ deletedAt: organizations.deletedAt });
  return row?.deletedAt ?? null;
}

export async function countMembers(db: Executor, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), isNull(users.deletedAt)));
  return row?.n ?? 0;
}

/**
 * Locks an organization's row until the transaction ends: 'update' to delete it, 'share' to add someone to it (so
 * it cannot be deleted meanwhile).
 */
export async function lockOrganization(db: Executor, id: number, mode: 'update' | 'share'): Promise<void> {
  await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).for(mode);
}
