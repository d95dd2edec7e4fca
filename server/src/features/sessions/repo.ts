import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organizations, sessions, users } from '../../db/schema';

export interface SessionRow {
  id: number;
  userId: number;
  impersonatorId: number | null;
  expiresAt: Date;
  lastSeenAt: Date;
  remember: boolean;
}

export interface NewSession {
  tokenHash: string;
  userId: number;
  impersonatorId?: number | null;
  ip: string;
  userAgent: string;
  remember: boolean;
  expiresAt: Date;
}

/** The session fields the server works with (never the token hash). */
const SESSION_COLUMNS = {
  id: sessions.id,
  userId: sessions.userId,
  impersonatorId: sessions.impersonatorId,
  expiresAt: sessions.expiresAt,
  lastSeenAt: sessions.lastSeenAt,
  remember: sessions.remember,
};

export async function insertSession(db: Executor, values: NewSession): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning(SESSION_COLUMNS);
  return row!;
}

/** The live session for a token hash, with its user and organization, in one round trip. */
export async function findLiveSession(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      session: SESSION_COLUMNS,
      user: users,
      organizationName: organizations.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        isNull(users.deletedAt),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function touchSession(db: Executor, id: number): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, id));
}

/** Ends a session; returns false when it was already ended. */
export async function revokeSession(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}
