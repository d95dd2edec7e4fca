/** An operator's reset of someone's two-factor sign-in from the command line (`tessera user reset-2fa`). */
import type { Database } from '../../db/client';
import { audit } from '../audit/record';
import { findUserByEmail } from '../users/repo';
import { removeTwoFactor } from './repo';

export async function resetTwoFactorByEmail(
  database: Database,
  email: string,
): Promise<'reset' | 'no-user' | 'not-on'> {
  const found = await findUserByEmail(database.db, email);
  if (!found) return 'no-user';
  return database.transaction(async (tx) => {
    if (!(await removeTwoFactor(tx, found.user.id))) return 'not-on';
    await audit(tx, {
      action: 'two_factor.reset',
      targetType: 'user',
      targetId: found.user.id,
      detail: { via: 'cli' },
    });
    return 'reset';
  });
}
