/**
 * Cross-site request defence: state-changing console calls carry X-Requested-With (a header a form post
 * cannot add) and, when the browser sends an Origin, it must be ours. Calls authenticated by an
 * Authorization header are exempt: browsers never attach that header on their own. So are calls to the paths
 * meant for key callers that carry no session cookie: with no credential a browser could add, a forged call could
 * do nothing, and the route itself answers 401 with WWW-Authenticate (issue 28 finding 13).
 */
import { REQUESTED_WITH_HEADER, SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@tessera/common/entities';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * True when `origin` is PUBLIC_URL's origin. When PUBLIC_URL is a loopback address, any loopback name for
 * the same port is accepted, so http://127.0.0.1:3000 works as well as http://localhost:3000.
 */
export function isAllowedOrigin(origin: string, publicUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === publicUrl.origin) return true;
  return (
    LOOPBACK.test(publicUrl.hostname) &&
    LOOPBACK.test(url.hostname) &&
    url.protocol === publicUrl.protocol &&
    url.port === publicUrl.port
  );
}

/**
 * Routes meant for API keys (docs/api-keys.md): the lookups, under LOOKUP_PREFIXES of features/identities, bulk jobs
 * (docs/jobs.md) and change subscriptions (docs/subscriptions.md).
 */
const KEY_ROUTES = ['/v2/identities/', '/v1/identities/', '/v2/jobs', '/v2/subscriptions', '/v2/uploads'];

/** A key route called without a session cookie: a key caller's, or nobody's (401 follows). */
function keyCall(request: FastifyRequest): boolean {
  // The matched route, not the raw URL, so an encoded path cannot pass for one.
  const route = request.routeOptions.url ?? '';
  if (!KEY_ROUTES.some((prefix) => route.startsWith(prefix))) return false;
  return !request.cookies[SESSION_COOKIE] && !request.cookies[SECURE_SESSION_COOKIE];
}

export function registerOriginCheck(app: FastifyInstance, publicUrl: URL): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // Every state-changing request is checked, whatever its path looks like before decoding. A request that
    // carries its own credentials (an API key) is not signed in by cookie (see auth.ts), so it needs no check.
    if (request.headers.authorization || keyCall(request)) return;
    if (!request.headers[REQUESTED_WITH_HEADER]) {
      throw new Forbidden('This call must be made by the console (missing X-Requested-With header).');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, publicUrl)) {
      throw new Forbidden('Cross-site request refused.');
    }
  });
}
