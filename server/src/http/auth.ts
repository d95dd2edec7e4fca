/** Resolves the console session on every API request: `request.user` is the signed-in user or anonymous. */
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import { hasRank, type Role } from '@tessera/common/roles';
import { isApiPath } from '@tessera/common/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionContext, SessionService } from '../features/sessions/service';
import { type CookiePolicy, readSessionToken } from './cookies';
import { Forbidden, Unauthorized } from './errors';

/** Who a request acts for, as the access line names them: a console session's user, or a lookup's API key. */
export interface Principal {
  userId: number;
  organizationId: number | null;
  keyId: string | null;
  /** The staff member acting as this user (impersonation), or null. */
  impersonatorId?: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: User;
    session: SessionContext | null;
    principal: Principal | null;
  }
}

export function registerAuth(app: FastifyInstance, sessions: SessionService, policy: CookiePolicy): void {
  app.decorateRequest('user', null as unknown as User);
  app.decorateRequest('session', null);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    request.user = ANONYMOUS_USER;
    request.session = null;
    request.principal = null;
    // Decided on the matched route, not the raw URL, so an encoded path cannot skip or confuse it.
    if (!isApiPath(request.routeOptions.url ?? '')) return;
    // A request with its own credentials is never signed in by cookie: cookies ride along cross-site, keys do not.
    if (request.headers.authorization) return;
    const token = readSessionToken(request, policy);
    if (!token) return;
    const resolved = await sessions.resolve(token);
    if (!resolved) return;
    request.user = resolved.user;
    request.session = resolved.session;
    request.principal = {
      userId: resolved.user.id,
      organizationId: resolved.user.organizationId,
      keyId: null,
      impersonatorId: resolved.session.impersonatorId,
    };
  });
}

/** Route guard: below `minimum` an anonymous caller gets 401, a signed-in one 403. */
export function requireRank(minimum: Role) {
  return async (request: FastifyRequest) => {
    if (hasRank(request.user.role, minimum)) return;
    if (request.user.id === 0) throw new Unauthorized();
    throw new Forbidden();
  };
}
