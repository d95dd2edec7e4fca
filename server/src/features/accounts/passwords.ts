/**
 * Spec §2/§4 passwords: e-mailed links that open a password-only session, forgotten-password requests that
 * answer the same whether or not the address has an account, and setting, resetting and changing a password.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import { afterPassword } from '@tessera/common/return-path';
import { emailKey } from '@tessera/common/validation';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Executor } from '../../db/client';
import { users } from '../../db/schema';
import { clientInfo } from '../../http/client-info';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from '../../http/cookies';
import { BadRequest, Unauthorized, Unprocessable } from '../../http/errors';
import { actionLink, type Mailer, resetPassword } from '../../mail';
import type { Hub } from '../../socket/hub';
import { type AuditAction, audit } from '../audit/record';
import { consumeToken, issueToken, TOKEN_TTL_MS } from '../email-tokens/service';
import type { SessionService } from '../sessions/service';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES, throttle } from '../throttle/rules';
import { hashPassword, verifyPassword } from '../users/passwords';
import { findUserByEmail, findUserById } from '../users/repo';
import { emailDomain, findAcceptingOrganization } from './domain';

export interface PasswordDeps {
  database: Database;
  sessions: SessionService;
  hub: Hub;
  mailer: Mailer;
  limiter: Limiter;
  cookies: CookiePolicy;
  publicUrl: URL;
}

/** A password-only session lasts as long as a reset link. */
const LINK_SESSION_MS = TOKEN_TTL_MS.reset;

export function createPasswordService(deps: PasswordDeps) {
  const { db } = deps.database;

  /**
   * In one transaction: stores a password's hash, audits it, ends the user's sessions but `keep`, and runs
   * `then` (e.g. starting the next session). Browsers of the ended sessions hear of it once it has committed.
   */
  async function storePassword<T>(
    change: { userId: number; impersonatorId?: number; action: AuditAction; ip: string; keep: number | null },
    newPassword: string,
    then: (tx: Executor) => Promise<T>,
  ): Promise<T> {
    const passwordHash = await hashPassword(newPassword);
    const { ended, result } = await deps.database.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, change.userId));
      await audit(tx, {
        action: change.action,
        actorId: change.userId,
        impersonatorId: change.impersonatorId,
        targetType: 'user',
        targetId: change.userId,
        ip: change.ip,
      });
      return { ended: await deps.sessions.endOthers(change.userId, change.keep, tx), result: await then(tx) };
    });
    await Promise.all(ended.map((id) => deps.hub.endSession(id)));
    return result;
  }

  /** Ends a link's session as its password is taken; a second submit racing the first finds it gone and fails. */
  async function spendLinkSession(tx: Executor, sessionId: number): Promise<void> {
    if (!(await deps.sessions.end(sessionId, tx))) throw new Unauthorized(ACCOUNT_MESSAGES.linkExpired);
  }

  return {
    /**
     * Opens an e-mailed link: uses the token up and starts a session that can only take the link's password
     * action. A verification link also marks the address verified and joins the accepting organization.
     */
    async openLink(token: string, request: FastifyRequest, reply: FastifyReply): Promise<User> {
      const started = await deps.database.transaction(async (tx) => {
        const used = await consumeToken(tx, token, ['verify', 'set', 'reset']);
        if (!used) throw new Unprocessable(ACCOUNT_MESSAGES.linkExpired);
        const found = await findUserById(tx, used.userId);
        if (!found?.user.isActive) throw new Unprocessable(ACCOUNT_MESSAGES.linkExpired);
        let user = found.user;
        let organizationName = found.organizationName;
        if (used.purpose === 'verify') {
          const organization = user.organizationId === null ? await findAcceptingOrganization(tx, user.email) : null;
          if (user.organizationId === null && !organization) {
            throw new Unprocessable(ACCOUNT_MESSAGES.noAcceptingOrganization(emailDomain(user.email)));
          }
          const [updated] = await tx
            .update(users)
            .set({
              verifiedAt: new Date(),
              organizationId: user.organizationId ?? organization!.id,
              updatedAt: new Date(),
            })
            .where(eq(users.id, user.id))
            .returning();
          user = updated!;
          organizationName = organization?.name ?? organizationName;
          await audit(tx, {
            action: 'signup.verify',
            actorId: user.id,
            targetType: 'user',
            targetId: user.id,
            ip: request.ip,
          });
        }
        if (used.purpose === 'set' && !user.verifiedAt) {
          // The link reached the address an administrator gave: that verifies it.
          const [updated] = await tx
            .update(users)
            .set({ verifiedAt: new Date(), updatedAt: new Date() })
            .where(eq(users.id, user.id))
            .returning();
          user = updated!;
        }
        return deps.sessions.start(
          {
            user,
            organizationName,
            remember: false,
            ...clientInfo(request),
            scope: used.purpose === 'reset' ? 'reset' : 'set',
            lifetimeMs: LINK_SESSION_MS,
          },
          tx,
        );
      });
      setSessionCookies(reply, deps.cookies, started.token, started.user, false);
      return started.user;
    },

    /**
     * Mails a reset link when the address has an active account, and answers the same either way. The request
     * does the same work for both, throttling alone: finding the account, issuing the token and auditing happen
     * in the mail queue after the reply, so its time tells nothing of the answer.
     */
    async forgot(email: string, ip: string): Promise<{ sent: true }> {
      await throttle(deps.limiter, [
        [`mail:ip:${ip}`, THROTTLE_RULES.mailPerIp],
        [`mail:address:${emailKey(email)}`, THROTTLE_RULES.mailPerAddress],
      ]);
      deps.mailer.compose('password reset', async () => {
        const found = await findUserByEmail(db, email);
        const user = found?.user.isActive ? found.user : null;
        const token = user ? await issueToken(db, user.id, 'reset') : null;
        await audit(db, {
          action: 'password.forgot',
          targetType: 'user',
          targetId: user?.id ?? '',
          ip,
          detail: { domain: emailDomain(email) },
        });
        if (!user || !token) return null;
        return resetPassword({
          to: user.email,
          name: user.name,
          link: actionLink(deps.publicUrl, '/password/reset', token),
        });
      });
      return { sent: true };
    },

    /**
     * Takes a link session's password action (spec §2 Password). `set` signs the user in, a signer until they
     * accept the agreement; `reset` ends every session of the user and signs in nobody.
     */
    async fromLink(
      action: 'set' | 'reset',
      newPassword: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ self: User; location: string }> {
      const session = request.session!;
      // Every other session of the user ends (and its browsers hear so); this page's own link session is handed
      // over instead, so its socket is not told "Signed Out" in the middle of the next step.
      const change = {
        userId: session.userId,
        action: `password.${action}` as const,
        ip: request.ip,
        keep: session.id,
      };
      if (action === 'reset') {
        // Nobody is signed in after a reset; this browser's cookies are cleared by the reply and its console
        // reconnects its socket as anonymous when it reads that.
        await storePassword(change, newPassword, (tx) => spendLinkSession(tx, session.id));
        clearSessionCookies(reply, deps.cookies);
        return { self: ANONYMOUS_USER, location: afterPassword(ANONYMOUS_USER) };
      }
      const started = await storePassword(change, newPassword, async (tx) => {
        const found = await findUserById(tx, session.userId);
        if (!found) throw new Unauthorized();
        const next = await deps.sessions.start(
          { user: found.user, organizationName: found.organizationName, remember: false, ...clientInfo(request) },
          tx,
        );
        await spendLinkSession(tx, session.id);
        return next;
      });
      await deps.hub.rotateSession(session.id, started.session.id, started.user);
      setSessionCookies(reply, deps.cookies, started.token, started.user, false);
      return { self: started.user, location: afterPassword(started.user) };
    },

    /**
     * Changes the password with the current one. The user's other sessions end, and this one continues under a new
     * token (a credential change is a privilege change: whoever held the old token no longer does).
     */
    async change(
      current: string,
      newPassword: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ self: User; location: string }> {
      const { session, user } = request;
      if (!session) throw new Unauthorized();
      const found = await findUserById(db, user.id);
      const ok = found?.user.passwordHash ? await verifyPassword(found.user.passwordHash, current) : false;
      if (!ok)
        throw new BadRequest(ACCOUNT_MESSAGES.wrongPassword, [
          { path: 'body.password', message: ACCOUNT_MESSAGES.wrongPassword },
        ]);
      const started = await storePassword(
        {
          userId: user.id,
          impersonatorId: user.impersonator,
          action: 'password.change',
          ip: request.ip,
          keep: session.id,
        },
        newPassword,
        async (tx) => {
          const next = await deps.sessions.start(
            {
              user: found!.user,
              organizationName: found!.organizationName,
              remember: session.remember,
              impersonatorId: session.impersonatorId,
              ...clientInfo(request),
            },
            tx,
          );
          await deps.sessions.end(session.id, tx);
          return next;
        },
      );
      await deps.hub.rotateSession(session.id, started.session.id, started.user);
      setSessionCookies(reply, deps.cookies, started.token, started.user, session.remember);
      return { self: started.user, location: afterPassword(started.user) };
    },
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
