/** Spec §2/§4 sign-up by e-mail domain: which organization, if any, accepts a new address. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organizations } from '../../db/schema';

export type OrganizationRow = typeof organizations.$inferSelect;

/** The domain part of an address, lower-cased; '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** The live organization owning this domain, whether or not it accepts users. */
export async function findOrganizationByDomain(db: Executor, domain: string): Promise<OrganizationRow | null> {
  if (domain === '') return null;
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(sql`lower(${organizations.emailDomain}) = ${domain}`, isNull(organizations.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** The organization a new person with this address joins, or null when no organization accepts the domain. */
export async function findAcceptingOrganization(db: Executor, email: string): Promise<OrganizationRow | null> {
  const organization = await findOrganizationByDomain(db, emailDomain(email));
  return organization?.acceptUsers ? organization : null;
}

export async function findOrganization(db: Executor, id: number): Promise<OrganizationRow | null> {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.deletedAt)))
    .limit(1);
  return row ?? null;
}
