/** Agreement versions and who accepted which. The newest version is the current one. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { agreementAcceptances, agreements } from '../../db/schema';

export interface Agreement {
  id: number;
  body: string;
}

export async function currentAgreement(db: Executor): Promise<Agreement | null> {
  const [row] = await db
    .select({ id: agreements.id, body: agreements.body })
    .from(agreements)
    .orderBy(desc(agreements.id))
    .limit(1);
  return row ?? null;
}

export async function hasAcceptedCurrentAgreement(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ ok: sql<boolean>`true` })
    .from(agreementAcceptances)
    .where(
      and(
        eq(agreementAcceptances.userId, userId),
        sql`${agreementAcceptances.agreementId} = (select max(${agreements.id}) from ${agreements})`,
      ),
    )
    .limit(1);
  return row?.ok === true;
}

/** When the user accepted the agreement version `agreementId`; null if they have not. */
export async function acceptedAt(db: Executor, userId: number, agreementId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: agreementAcceptances.acceptedAt })
    .from(agreementAcceptances)
    .where(and(eq(agreementAcceptances.userId, userId), eq(agreementAcceptances.agreementId, agreementId)))
    .limit(1);
  return row?.at ?? null;
}

/** Records an acceptance; accepting the same version twice is harmless. */
export async function recordAcceptance(db: Executor, userId: number, agreementId: number, ip: string): Promise<void> {
  await db.insert(agreementAcceptances).values({ userId, agreementId, ip }).onConflictDoNothing();
}

export async function publishAgreement(db: Executor, body: string): Promise<Agreement> {
  const [row] = await db.insert(agreements).values({ body }).returning({ id: agreements.id, body: agreements.body });
  return row!;
}
