/**
 * Cross-site request defence: state-changing console calls carry X-Requested-With (a header a form post
 * cannot add) and, when the browser sends an Origin, it must be ours. Calls authenticated by an
 * Authorization header are exempt: browsers never attach that header on their own.
 */
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import type { FastifyInstance } from 'fastify';
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

export function registerOriginCheck(app: FastifyInstance, publicUrl: URL): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // Every state-changing request is checked, whatever its path looks like before decoding. A request that
    // carries its own credentials (an API key) is not signed in by cookie (see auth.ts), so it needs no check.
    if (request.headers.authorization) return;
    if (!request.headers[REQUESTED_WITH_HEADER]) {
      throw new Forbidden('This call must be made by the console (missing X-Requested-With header).');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, publicUrl)) {
      throw new Forbidden('Cross-site request refused.');
    }
  });
}
