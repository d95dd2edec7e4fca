/**
 * Spec §2/§4 sign-up by e-mail domain: the pre-approval probe and the sign-up request. Verification happens
 * through the e-mailed link (see links.ts); the account joins its organization then.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { emailKey } from '@tessera/common/validation';
import type { Database } from '../../db/client';
import { Conflict, Unprocessable } from '../../http/errors';
import { actionLink, type Mailer, verifyEmail } from '../../mail';
import { audit } from '../audit/record';
import { issueToken } from '../email-tokens/service';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES, throttle } from '../throttle/rules';
import { findUserByEmail, insertUser } from '../users/repo';
import { emailDomain, findAcceptingOrganization, findOrganizationByDomain } from './domain';

export interface SignupDeps {
  database: Database;
  mailer: Mailer;
  limiter: Limiter;
  publicUrl: URL;
}

export function createSignupService(deps: SignupDeps) {
  const { db } = deps.database;
  return {
    /** What the sign-up form shows while the address is typed. It reveals whether an account exists, so it is throttled and audited. */
    async preapprove(email: string, ip: string) {
      const domain = emailDomain(email);
      await throttle(deps.limiter, [
        [`preapprove:ip:${ip}`, THROTTLE_RULES.preapprovePerIp],
        [`preapprove:domain:${domain}`, THROTTLE_RULES.preapprovePerDomain],
      ]);
      const [organization, existing] = await Promise.all([
        findOrganizationByDomain(db, domain),
        findUserByEmail(db, email),
      ]);
      await audit(db, { action: 'preapprove.probe', ip, detail: { domain } });
      return {
        emailDomain: domain,
        organizationName: organization?.name ?? '',
        acceptUsers: organization?.acceptUsers ?? false,
        userId: existing?.user.id ?? 0,
      };
    },

    /**
     * Creates the unverified account and mails the verification link. Sign-up never changes an account that
     * exists: an active one is refused (spec §8), and one still pending (signed up, or made by an administrator,
     * and its link not yet used) gets the same reply as a new one and a fresh link mailed to its own address. The
     * replies reveal no more than pre-approval does. The mail goes to an address nobody has proven yet, so it
     * carries nothing a requester typed: it greets no one by name (decision 0020).
     */
    async signup(input: { name: string; email: string }, ip: string): Promise<{ sent: true }> {
      await throttle(deps.limiter, [
        [`mail:ip:${ip}`, THROTTLE_RULES.mailPerIp],
        [`mail:address:${emailKey(input.email)}`, THROTTLE_RULES.mailPerAddress],
      ]);
      const mail = await deps.database.transaction(async (tx) => {
        const existing = await findUserByEmail(tx, input.email);
        if (existing && (existing.user.verifiedAt || existing.user.passwordHash)) {
          throw new Conflict(ACCOUNT_MESSAGES.existingUser(input.email));
        }
        if (!(await findAcceptingOrganization(tx, input.email))) {
          throw new Unprocessable(ACCOUNT_MESSAGES.noAcceptingOrganization(emailDomain(input.email)));
        }
        // A deactivated account's link would not open: nothing to send.
        if (existing && !existing.user.isActive) return null;
        const user = existing?.user ?? (await insertUser(tx, { email: input.email, name: input.name, role: 'user' }));
        await audit(tx, {
          action: 'signup.request',
          targetType: 'user',
          targetId: user.id,
          ip,
          detail: { existing: Boolean(existing) },
        });
        return { to: user.email, token: await issueToken(tx, user.id, 'verify') };
      });
      if (mail) {
        deps.mailer.send(
          verifyEmail({ to: mail.to, name: null, link: actionLink(deps.publicUrl, '/password/set', mail.token) }),
        );
      }
      return { sent: true };
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
