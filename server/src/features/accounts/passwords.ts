/**
 * Spec §2/§4 passwords: e-mailed links that open a password-only session, forgotten-password requests that
 * answer the same whether or not the address has an account, and setting, resetting and changing a password.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
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

const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });

export function createPasswordService(deps: PasswordDeps) {
  const { db } = deps.database;

  /** Stores a new password's hash and audits it as the user's own action. */
  async function storePassword(userId: number, newPassword: string, action: AuditAction, ip: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await audit(db, { action, actorId: userId, targetType: 'user', targetId: userId, ip });
  }

  /** Ends sessions on every process so their browsers sign out at once. */
  async function endSessions(userId: number, keep: number | null): Promise<void> {
    const ended = await deps.sessions.endOthers(userId, keep);
    await Promise.all(ended.map((id) => deps.hub.endSession(id)));
  }

  return {
    /**
     * Opens an e-mailed link: uses the token up and starts a session that can only take the link's password
     * action. A verification link also marks the address verified and joins the accepting organization.
     */
    async openLink(token: string, request: FastifyRequest, reply: FastifyReply): Promise<User> {
      const opened = await deps.database.transaction(async (tx) => {
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
        return { user, organizationName, purpose: used.purpose };
      });
      // The session starts once the token is spent and the address verified (the transaction has committed).
      const started = await deps.sessions.start({
        user: opened.user,
        organizationName: opened.organizationName,
        remember: false,
        ...client(request),
        scope: opened.purpose === 'reset' ? 'reset' : 'set',
        lifetimeMs: LINK_SESSION_MS,
      });
      setSessionCookies(reply, deps.cookies, started.token, started.user, false);
      return started.user;
    },

    /** Mails a reset link when the address has an active account; answers the same either way. */
    async forgot(email: string, ip: string): Promise<{ sent: true }> {
      await throttle(deps.limiter, [
        [`mail:ip:${ip}`, THROTTLE_RULES.mailPerIp],
        [`mail:address:${email.toLowerCase()}`, THROTTLE_RULES.mailPerAddress],
      ]);
      const found = await findUserByEmail(db, email);
      const user = found?.user.isActive ? found.user : null;
      // The same writes happen either way, so the reply takes a similar time; the mail goes out off the request path.
      const token = user ? await issueToken(db, user.id, 'reset') : null;
      await audit(db, {
        action: 'password.forgot',
        targetType: 'user',
        targetId: user?.id ?? '',
        ip,
        detail: { domain: emailDomain(email) },
      });
      if (user && token) {
        deps.mailer.send(
          resetPassword({
            to: user.email,
            name: user.name,
            link: actionLink(deps.publicUrl, '/password/reset', token),
          }),
        );
      }
      return { sent: true };
    },

    /** Sets the password from a set or verification link, then signs the user in (as a signer until they accept). */
    async setFromLink(
      newPassword: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ self: User; location: string }> {
      const session = request.session!;
      await storePassword(session.userId, newPassword, 'password.set', request.ip);
      await deps.sessions.end(session.id);
      const found = await findUserById(db, session.userId);
      if (!found) throw new Unauthorized();
      const started = await deps.sessions.start({
        user: found.user,
        organizationName: found.organizationName,
        remember: false,
        ...client(request),
      });
      setSessionCookies(reply, deps.cookies, started.token, started.user, false);
      return { self: started.user, location: started.user.role === 'signer' ? '/terms' : '/' };
    },

    /** Resets the password from a reset link; ends every session of the user and does not sign in. */
    async resetFromLink(
      newPassword: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ self: User; location: string }> {
      const session = request.session!;
      await storePassword(session.userId, newPassword, 'password.reset', request.ip);
      await endSessions(session.userId, null);
      clearSessionCookies(reply, deps.cookies);
      return { self: ANONYMOUS_USER, location: '/login' };
    },

    /** Changes the password with the current one; the user's other sessions end. */
    async change(
      current: string,
      newPassword: string,
      request: FastifyRequest,
    ): Promise<{ self: User; location: string }> {
      const { session, user } = request;
      const found = await findUserById(db, user.id);
      const ok = found?.user.passwordHash ? await verifyPassword(found.user.passwordHash, current) : false;
      if (!ok)
        throw new BadRequest(ACCOUNT_MESSAGES.wrongPassword, [
          { path: 'body.password', message: ACCOUNT_MESSAGES.wrongPassword },
        ]);
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(newPassword), updatedAt: new Date() })
        .where(eq(users.id, user.id));
      await audit(db, {
        action: 'password.change',
        actorId: user.id,
        impersonatorId: user.impersonator,
        targetType: 'user',
        targetId: user.id,
        ip: request.ip,
      });
      await endSessions(user.id, session?.id ?? null);
      return { self: user, location: '/profile' };
    },
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
