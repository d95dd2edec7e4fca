/** SQL for sign-in attempts: stored by the hash of their cookie id, taken back exactly once, dropped when stale. */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { oauthAttempts } from '../../db/schema';
import { hashToken } from '../sessions/tokens';
import { ATTEMPT_TTL_S } from './attempt-cookie';

export interface Attempt {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function saveAttempt(db: Executor, attemptId: string, attempt: Attempt): Promise<void> {
  // Expiry uses the database clock, so every server process agrees on it.
  await db.insert(oauthAttempts).values({
    idHash: hashToken(attemptId),
    ...attempt,
    expiresAt: sql`now() + make_interval(secs => ${ATTEMPT_TTL_S})`,
  });
}

/** Removes the attempt and returns it if it was still live; a second call for the same id finds nothing. */
export async function takeAttempt(db: Executor, attemptId: string): Promise<Attempt | null> {
  const [row] = await db
    .delete(oauthAttempts)
    .where(and(eq(oauthAttempts.idHash, hashToken(attemptId)), gt(oauthAttempts.expiresAt, sql`now()`)))
    .returning({
      provider: oauthAttempts.provider,
      state: oauthAttempts.state,
      nonce: oauthAttempts.nonce,
      codeVerifier: oauthAttempts.codeVerifier,
    });
  return row ?? null; // an expired attempt stays for dropExpiredAttempts
}

/** Attempts nobody came back for. */
export async function dropExpiredAttempts(db: Executor): Promise<void> {
  await db.delete(oauthAttempts).where(lt(oauthAttempts.expiresAt, sql`now()`));
}
