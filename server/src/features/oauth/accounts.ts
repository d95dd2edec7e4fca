/**
 * Who an outside identity signs in as. A linked (provider, subject) is that user. Otherwise the e-mail decides,
 * and only when the provider says it verified it: an existing account is linked if it is verified and active
 * (an unverified one may have been registered by someone else, waiting for its owner to link); a new person
 * joins the organization accepting their domain, as with sign-up. Linking and creating happen in one transaction.
 */

import type { ProviderId } from '@tessera/common/providers';
import { isEmail, MAX_LENGTH } from '@tessera/common/validation';
import type { Database } from '../../db/client';
import { emailDomain, findAcceptingOrganization } from '../accounts/domain';
import { audit } from '../audit/record';
import { findUserByEmail, insertUser, type UserRow } from '../users/repo';
import { OauthFailure } from './failures';
import { findLinkedUser, insertIdentity, touchIdentity } from './identities';
import type { ProviderClaims } from './provider-client';

export interface Account {
  user: UserRow;
  organizationName: string | null;
}

const usable = (user: UserRow) => user.isActive && user.deletedAt === null;

export function resolveAccount(
  database: Database,
  provider: ProviderId,
  claims: ProviderClaims,
  ip: string,
): Promise<Account> {
  return database.transaction(async (tx) => {
    const linked = await findLinkedUser(tx, provider, claims.subject);
    if (linked) {
      if (!usable(linked.user)) throw new OauthFailure('account');
      await touchIdentity(tx, linked.identityId);
      return { user: linked.user, organizationName: linked.organizationName };
    }

    const email = claims.email;
    if (email === null || !claims.emailVerified) throw new OauthFailure('unverified');
    const identity = { provider, subject: claims.subject, email };

    const existing = await findUserByEmail(tx, email);
    if (existing) {
      if (!usable(existing.user) || existing.user.verifiedAt === null) throw new OauthFailure('account');
      await insertIdentity(tx, { ...identity, userId: existing.user.id });
      await audit(tx, {
        action: 'oauth.link',
        actorId: existing.user.id,
        targetType: 'user',
        targetId: existing.user.id,
        ip,
        detail: { provider },
      });
      return existing;
    }

    if (!isEmail(email)) throw new OauthFailure('failed');
    const organization = await findAcceptingOrganization(tx, email);
    if (!organization) throw new OauthFailure('domain', emailDomain(email));
    const user = await insertUser(tx, {
      email,
      name: claims.name.slice(0, MAX_LENGTH.name),
      role: 'user',
      organizationId: organization.id,
      passwordHash: null,
      verifiedAt: new Date(),
    });
    await insertIdentity(tx, { ...identity, userId: user.id });
    await audit(tx, {
      action: 'oauth.signup',
      actorId: user.id,
      targetType: 'user',
      targetId: user.id,
      ip,
      detail: { provider, organizationId: organization.id },
    });
    return { user, organizationName: organization.name };
  });
}
