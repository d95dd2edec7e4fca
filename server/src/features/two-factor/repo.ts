/** SQL for two-factor sign-in: the sealed secret, recovery codes and sign-ins waiting for their code. */
import { TWO_FACTOR_RULES } from '@tessera/common/two-factor';
import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { twoFactorChallenges, twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema';
import { hashToken } from '../sessions/tokens';
import { recoveryCodeHash } from './totp';

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

export async function findTwoFactor(db: Executor, userId: number): Promise<TwoFactorRow | null> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row ?? null;
}

export async function isTwoFactorOn(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ on: userTwoFactor.userId })
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
  return Boolean(row);
}

/** A new unconfirmed secret, replacing an unconfirmed one; nothing when it is already on (the caller said so). */
export async function savePendingSecret(db: Executor, userId: number, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(userTwoFactor)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretSealed, lastTimeStep: null, createdAt: sql`now()` },
      setWhere: isNull(userTwoFactor.enabledAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/**
 * Records that a code of time step `step` was accepted, only if no code of that step or a later one was: two
 * requests racing with the same code (on any processes) cannot both win. False means a replay.
 */
export async function acceptStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastTimeStep: step })
    .where(
      and(
        eq(userTwoFactor.userId, userId),
        or(isNull(userTwoFactor.lastTimeStep), lt(userTwoFactor.lastTimeStep, step)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

export async function markEnabled(db: Executor, userId: number): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ enabledAt: sql`now()` })
    .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)))
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/** Turns it off: the secret, the codes and any sign-in waiting for a code. */
export async function removeTwoFactor(db: Executor, userId: number): Promise<boolean> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
  const rows = await db
    .delete(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .returning({ enabledAt: userTwoFactor.enabledAt });
  return rows.some((r) => r.enabledAt !== null);
}

/** Replaces the user's recovery codes by these (their hashes). */
export async function replaceRecoveryCodes(db: Executor, userId: number, codes: string[]): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryCodeHash(c) })));
}

/** Spends a recovery code: 'used' when it was right but spent before, 'wrong' when it is none of theirs. */
export async function spendRecoveryCode(db: Executor, userId: number, code: string): Promise<'ok' | 'used' | 'wrong'> {
  const hash = recoveryCodeHash(code);
  const spent = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, hash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  if (spent.length > 0) return 'ok';
  const [known] = await db
    .select({ id: twoFactorRecoveryCodes.id })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, hash)));
  return known ? 'used' : 'wrong';
}

export async function recoveryCodesLeft(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export interface PendingSignIn {
  userId: number;
  remember: boolean;
  returnTo: string | null;
  provider: string | null;
}

/** Stores a sign-in waiting for its code, under the hash of the browser's cookie id; expiry on the database clock. */
export async function saveChallenge(db: Executor, id: string, pending: PendingSignIn): Promise<void> {
  await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, sql`now()`));
  await db.insert(twoFactorChallenges).values({
    idHash: hashToken(id),
    ...pending,
    expiresAt: sql`now() + make_interval(secs => ${TWO_FACTOR_RULES.pendingSeconds})`,
  });
}

export async function findChallenge(db: Executor, id: string): Promise<PendingSignIn | null> {
  const [row] = await db
    .select({
      userId: twoFactorChallenges.userId,
      remember: twoFactorChallenges.remember,
      returnTo: twoFactorChallenges.returnTo,
      provider: twoFactorChallenges.provider,
    })
    .from(twoFactorChallenges)
    .where(and(eq(twoFactorChallenges.idHash, hashToken(id)), gt(twoFactorChallenges.expiresAt, sql`now()`)));
  return row ?? null;
}

/** Takes the challenge (once): a second request with the same cookie finds nothing. */
export async function takeChallenge(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .delete(twoFactorChallenges)
    .where(and(eq(twoFactorChallenges.idHash, hashToken(id)), gt(twoFactorChallenges.expiresAt, sql`now()`)))
    .returning({ userId: twoFactorChallenges.userId });
  return rows.length > 0;
}

/** Counts a wrong code; past the limit the challenge is gone and the password must be entered again. */
export async function failChallenge(db: Executor, id: string): Promise<void> {
  const [row] = await db
    .update(twoFactorChallenges)
    .set({ failures: sql`${twoFactorChallenges.failures} + 1` })
    .where(eq(twoFactorChallenges.idHash, hashToken(id)))
    .returning({ failures: twoFactorChallenges.failures });
  if (row && row.failures >= TWO_FACTOR_RULES.pendingFailures) {
    await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.idHash, hashToken(id)));
  }
}
