/**
 * The demo organization a new embedded database starts with (beside its generated people): "Demo", with a contract
 * in force for a year, so its members can call the lookup API at once. Made only when missing.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contracts, organizations } from '../../db/schema';

export const DEMO_ORGANIZATION = 'Demo';
export const DEMO_PRICES = { pricePerRequest: 0.001, pricePerIdentity: 0.01 } as const;

export async function ensureDemoOrganization(database: Database): Promise<{ id: number; created: boolean }> {
  return database.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.name, DEMO_ORGANIZATION), isNull(organizations.deletedAt)))
      .limit(1);
    if (found) return { id: found.id, created: false };
    const [org] = await tx.insert(organizations).values({ name: DEMO_ORGANIZATION }).returning();
    const now = Date.now();
    await tx.insert(contracts).values({
      organizationId: org!.id,
      name: 'Demo contract',
      startsAt: new Date(now - 24 * 3600_000),
      endsAt: new Date(now + 365 * 24 * 3600_000),
      ...DEMO_PRICES,
    });
    return { id: org!.id, created: true };
  });
}
