/**
 * REQUIRE_2FA_FOR_STAFF: a System Administrator or Maintainer without two-factor sign-in may only turn it on (and
 * sign out, read itself, see and end its own other sessions); anything else is 403 with TWO_FACTOR_MESSAGES.required,
 * which the console answers by going to the profile's enrolment. Checked on the server for every request: a
 * console that skipped the page would still be refused. An impersonating session began from a session that passed.
 */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { PROVIDERS_PATH } from '@tessera/common/providers';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import type { FastifyInstance } from 'fastify';
import { Forbidden } from '../../http/errors';
import { isStaff, type TwoFactorService } from './service';

const OPEN = new Set([
  `PUT ${AUTH_PATHS.logout}`,
  `GET ${AUTH_PATHS.self}`,
  `POST ${AUTH_PATHS.login}`,
  `POST ${TWO_FACTOR_PATHS.signIn}`,
  `GET ${TWO_FACTOR_PATHS.status}`,
  `POST ${TWO_FACTOR_PATHS.enrol}`,
  `POST ${TWO_FACTOR_PATHS.confirm}`,
  `GET ${PROVIDERS_PATH}`,
  `DELETE ${RESOURCE_PATHS.sessions}`,
  'GET /ws',
  'GET /oauth/:provider',
  'GET /oauth/:provider/callback',
  'GET /v2/openapi.json',
  'HEAD /v2/openapi.json',
  'GET /healthz',
  'GET /livez',
  'GET /readyz',
]);

export function registerTwoFactorGate(
  app: FastifyInstance,
  deps: { twoFactor: TwoFactorService; required: boolean },
): void {
  if (!deps.required) return;
  app.addHook('preHandler', async (request) => {
    const { session, user } = request;
    if (!session || session.impersonatorId !== null || !isStaff(user.role)) return;
    const call = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (OPEN.has(call)) return;
    // The profile page lists the person's own sessions.
    if (call === `GET ${RESOURCE_PATHS.sessions}` && (request.query as { mine?: unknown }).mine !== undefined) return;
    if (await deps.twoFactor.isOn(user.id)) return;
    throw new Forbidden(TWO_FACTOR_MESSAGES.required);
  });
}
