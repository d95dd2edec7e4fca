/**
 * Single-use links sent by e-mail. The token is 256 random bits; only its SHA-256 is stored. Issuing a new token
 * of a purpose retires the user's older unused ones of that purpose.
 */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { emailTokens } from '../../db/schema';
import { hashToken, newSessionToken } from '../sessions/tokens';

export type TokenPurpose = 'verify' | 'reset' | 'set';

const HOUR = 60 * 60 * 1000;
/** How long each kind of link works. */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = { verify: 24 * HOUR, reset: HOUR, set: 72 * HOUR };

export async function issueToken(db: Executor, userId: number, purpose: TokenPurpose): Promise<string> {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  const token = newSessionToken();
  await db.insert(emailTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/** Uses a token up: the user and purpose when it is live and of an accepted purpose, else null. */
export async function consumeToken(
  db: Executor,
  token: string,
  purposes: TokenPurpose[],
): Promise<{ userId: number; purpose: TokenPurpose } | null> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
        inArray(emailTokens.purpose, purposes),
      ),
    )
    .returning({ userId: emailTokens.userId, purpose: emailTokens.purpose });
  return row ? { userId: row.userId, purpose: row.purpose as TokenPurpose } : null;
}
