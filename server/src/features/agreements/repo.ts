/** Agreement versions with their acceptance counts, and who accepted one. */
import type { AgreementAcceptance, AgreementVersion } from '@tessera/common/contact';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { agreementAcceptances, agreements, users } from '../../db/schema';

/** Acceptances one list answers with, newest first. */
export const ACCEPTANCES_LIMIT = 1000;

export async function listVersions(db: Executor): Promise<AgreementVersion[]> {
  const rows = await db
    .select({
      id: agreements.id,
      createdAt: agreements.createdAt,
      length: sql<number>`length(${agreements.body})::int`,
      acceptances: sql<number>`(select count(*)::int from ${agreementAcceptances} where ${agreementAcceptances.agreementId} = ${agreements.id})`,
    })
    .from(agreements)
    .orderBy(desc(agreements.id));
  return rows.map((row, i) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    length: Number(row.length),
    acceptances: Number(row.acceptances),
    current: i === 0,
  }));
}

export async function findVersion(db: Executor, id: number): Promise<{ id: number; body: string } | null> {
  const [row] = await db
    .select({ id: agreements.id, body: agreements.body })
    .from(agreements)
    .where(eq(agreements.id, id));
  return row ?? null;
}

export async function acceptancesOf(
  db: Executor,
  agreementId: number,
): Promise<{ total: number; acceptances: AgreementAcceptance[] }> {
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(agreementAcceptances)
    .where(eq(agreementAcceptances.agreementId, agreementId));
  const rows = await db
    .select({
      userId: agreementAcceptances.userId,
      name: users.name,
      email: users.email,
      acceptedAt: agreementAcceptances.acceptedAt,
    })
    .from(agreementAcceptances)
    .innerJoin(users, eq(users.id, agreementAcceptances.userId))
    .where(eq(agreementAcceptances.agreementId, agreementId))
    .orderBy(desc(agreementAcceptances.acceptedAt), desc(agreementAcceptances.userId))
    .limit(ACCEPTANCES_LIMIT);
  return {
    total: Number(total),
    acceptances: rows.map((r) => ({ ...r, acceptedAt: r.acceptedAt.toISOString() })),
  };
}
