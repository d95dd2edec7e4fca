/**
 * Spec §4 half states, enforced on the server: a signer (agreement not yet accepted) may only read and accept
 * the terms, read itself and sign out, and gets 451 for anything else; a resetter (password-only session) may
 * only set its password, read itself and sign out, and gets 403 for anything else.
 */

import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { PROVIDERS_PATH } from '@tessera/common/providers';
import { TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import type { FastifyInstance } from 'fastify';
import { Forbidden, LegalNotice } from './errors';

/**
 * Open to every session: signing out, reading oneself, the socket, the health check, signing in afresh, and the API
 * reference, which is public (so its document declares no 451).
 */
const ALWAYS = new Set([
  'GET /v2/openapi.json',
  'HEAD /v2/openapi.json',
  `PUT ${AUTH_PATHS.logout}`,
  `GET ${AUTH_PATHS.self}`,
  `POST ${AUTH_PATHS.login}`,
  // Signing in afresh may take its second step (decision 0063), and the sign-in page lists the providers.
  `POST ${TWO_FACTOR_PATHS.signIn}`,
  `GET ${PROVIDERS_PATH}`,
  'GET /ws',
  'GET /oauth/:provider',
  'GET /oauth/:provider/callback',
  'GET /healthz',
  'GET /livez',
  'GET /readyz',
]);
const SIGNER = new Set(['GET /v2/terms', 'POST /v2/terms/accept']);

export const TERMS_REQUIRED = 'Please accept the agreement to continue.';
export const PASSWORD_ONLY = 'This session can only set a password.';

export function registerStandingGate(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const { role } = request.user;
    if (role !== 'signer' && role !== 'resetter') return;
    const call = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (ALWAYS.has(call)) return;
    if (role === 'signer' && !SIGNER.has(call)) throw new LegalNotice(TERMS_REQUIRED);
    // A link's session may only take that link's action: a reset link cannot become a signed-in set.
    // Decided on the matched route and its decoded parameter, never the raw URL.
    const action = (request.params as { action?: string } | undefined)?.action;
    if (role === 'resetter' && !(call === 'POST /auth/password/:action' && action === request.session?.scope)) {
      throw new Forbidden(PASSWORD_ONLY);
    }
  });
}
