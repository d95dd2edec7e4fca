import { and, desc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { agreementAcceptances, agreements, organizations, sessions, users } from '../../db/schema';
import { IDLE_MS, REMEMBERED_IDLE_MS } from './policy';

export interface SessionRow {
  id: number;
  userId: number;
  impersonatorId: number | null;
  expiresAt: Date;
  lastSeenAt: Date;
  remember: boolean;
  scope: SessionScope;
}

/** 'reset' or 'set': a session from such an e-mailed link, good only for that password action. */
export type SessionScope = 'full' | 'reset' | 'set';

export interface NewSession {
  tokenHash: string;
  userId: number;
  impersonatorId?: number | null;
  ip: string;
  userAgent: string;
  remember: boolean;
  scope?: SessionScope;
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
  scope: sql<SessionScope>`${sessions.scope}`,
};

export async function insertSession(db: Executor, values: NewSession): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning(SESSION_COLUMNS);
  return row!;
}

/** The idle limits as SQL intervals (our own constants, written into the statement). */
const IDLE_INTERVAL = {
  browser: sql.raw(`interval '${IDLE_MS} milliseconds'`),
  remembered: sql.raw(`interval '${REMEMBERED_IDLE_MS} milliseconds'`),
};

/** Whether the user has accepted the newest agreement (spec §4: otherwise they are a signer). */
export const ACCEPTED_CURRENT_AGREEMENT = sql<boolean>`exists (
  select 1 from ${agreementAcceptances}
  where ${agreementAcceptances.userId} = ${users.id}
    and ${agreementAcceptances.agreementId} = (select max(${agreements.id}) from ${agreements})
)`;

/** A session that is neither ended, expired nor idle too long, of an active user (joined as `users`). */
const LIVE = and(
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql`now()`),
  sql`${sessions.lastSeenAt} > now() - (case when ${sessions.remember} then ${IDLE_INTERVAL.remembered} else ${IDLE_INTERVAL.browser} end)`,
  isNull(users.deletedAt),
  eq(users.isActive, true),
);

/** The live session for a token hash, with its user and organization, in one round trip. */
export async function findLiveSession(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      session: SESSION_COLUMNS,
      user: users,
      organizationName: organizations.name,
      acceptedTerms: ACCEPTED_CURRENT_AGREEMENT,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(sessions.tokenHash, tokenHash), LIVE))
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

/**
 * Whose a session is: the real user behind it. An impersonation session belongs to the impersonator, not to the
 * user it acts as, so only they (or someone above them) can list or end it.
 */
const OWNER = sql`coalesce(${sessions.impersonatorId}, ${sessions.userId})`;

async function revokeWhere(db: Executor, condition: SQL | undefined, exceptId: number | null): Promise<number[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(condition, isNull(sessions.revokedAt), exceptId === null ? undefined : sql`${sessions.id} <> ${exceptId}`),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/** Ends every live session a user owns (their own, and their impersonations) but one; returns the ended ids. */
export function revokeUserSessions(db: Executor, userId: number, exceptId: number | null): Promise<number[]> {
  return revokeWhere(db, sql`${OWNER} = ${userId}`, exceptId);
}

/** Ends every session a user owns or is acted as (their role, access or account changed); returns the ended ids. */
export function revokeSessionsInvolving(db: Executor, userId: number): Promise<number[]> {
  return revokeWhere(db, or(eq(sessions.userId, userId), eq(sessions.impersonatorId, userId)), null);
}

/**
 * Live sessions with the users they act as and their organizations, newest activity first; those a user owns when
 * `userId` is given.
 */
export async function listLiveSessions(db: Executor, userId?: number, limit = 1000) {
  return db
    .select({
      session: { ...SESSION_COLUMNS, ip: sessions.ip, userAgent: sessions.userAgent, createdAt: sessions.createdAt },
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        organizationId: users.organizationId,
      },
      organizationName: organizations.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(LIVE, userId === undefined ? undefined : sql`${OWNER} = ${userId}`))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(limit);
}

/** One live session with its owner's id and stored role. */
export async function findLiveSessionById(db: Executor, id: number) {
  const owners = alias(users, 'owner');
  const [row] = await db
    .select({ id: sessions.id, ownerId: owners.id, ownerRole: owners.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(owners, sql`${owners.id} = ${OWNER}`)
    .where(and(LIVE, eq(sessions.id, id)))
    .limit(1);
  return row ?? null;
}
