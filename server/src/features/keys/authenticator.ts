/**
 * The API key way into the lookup API: `Authorization: Bearer ...` in any of its three forms. A key anywhere else
 * (a query parameter, a cookie) is refused outright, so it never settles in logs, histories or browsers.
 */
import { KEY_MESSAGES } from '@tessera/common/keys';
import type { FastifyRequest } from 'fastify';
import { BadRequest, Unauthorized } from '../../http/errors';
import type { LookupAuthenticator } from '../identities/caller';
import { parseAuthorization } from './credentials';
import type { KeyVerifier } from './verify';

const KEY_NAMES = new Set(['key', 'apikey', 'api_key', 'api-key', 'token', 'access_token', 'authorization', 'secret']);

/** A plain key (id and secret, 48 letters and digits), not merely hex: hashes and device ids are inputs. */
const PLAIN_KEY = /^(Bearer\s+)?(tk_test_)?(?![0-9a-fA-F]+$)[A-Za-z0-9]{48}$/;

function looksLikeKey(name: string, value: unknown): boolean {
  if (KEY_NAMES.has(name.toLowerCase())) return true;
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => typeof v === 'string' && PLAIN_KEY.test(v.trim()));
}

/** 400 when the request carries what looks like a key in its query string or cookies. */
export function refuseKeysOutsideHeader(request: FastifyRequest): void {
  const places: [string, Record<string, unknown> | undefined][] = [
    ['querystring', request.query as Record<string, unknown> | undefined],
    ['cookie', request.cookies as Record<string, unknown> | undefined],
  ];
  for (const [place, values] of places) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (looksLikeKey(name, value)) {
        throw new BadRequest(KEY_MESSAGES.inUrl, [{ path: `${place}.${name}`, message: KEY_MESSAGES.inUrl }]);
      }
    }
  }
}

export function keyAuthenticator(verifier: KeyVerifier): LookupAuthenticator {
  return async (request) => {
    refuseKeysOutsideHeader(request);
    const header = request.headers.authorization;
    if (!header) return null;
    const credential = parseAuthorization(header);
    if (!credential) throw new Unauthorized(KEY_MESSAGES.malformed);
    const key = await verifier.verify(credential, request.ip);
    return {
      userId: key.userId,
      organizationId: key.organizationId,
      role: key.role,
      allowedRecordTypes: key.allowedRecordTypes,
      keyId: key.keyId,
      rateLimit: key.rateLimit,
      mode: key.mode,
      defaultPurpose: key.defaultPurpose,
    };
  };
}
