/**
 * Who is calling the lookup API. Every way in (a console session now, an API key with the API access issue)
 * resolves to the same caller, so the lookup, its templates and its metering never ask how the call was signed.
 */
import type { KeyMode } from '@tessera/common/keys';
import { hasRank, type Role } from '@tessera/common/roles';
import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from '../../http/errors';

export interface LookupCaller {
  userId: number;
  organizationId: number | null;
  role: Role;
  /** Record types the caller may receive; empty means all, and a name that is no record type grants nothing. */
  allowedRecordTypes: readonly string[];
  /** The API key used, or null for a console session. */
  keyId: string | null;
  /** The key's own limit, requests a minute; null for none (and for a console session). */
  rateLimit: number | null;
  /** `test`: a test key, answered from the sandbox graph, free (issue 31); a console session is live. */
  mode: KeyMode;
  /** The key's default permissible purpose (issue 34); null for none (and for a console session). */
  defaultPurpose?: string | null;
}

/** One way of proving who calls: the caller, or null when the request does not use this way. */
export type LookupAuthenticator = (request: FastifyRequest) => Promise<LookupCaller | null>;

/** A console session of a user (rank user or more; the playground calls this way). */
export const sessionAuthenticator: LookupAuthenticator = async (request) => {
  const { user } = request;
  if (user.id === 0) return null;
  if (!hasRank(user.role, 'user')) throw new Forbidden();
  return {
    userId: user.id,
    organizationId: user.organizationId,
    role: user.role,
    allowedRecordTypes: user.allowedRecordTypes,
    keyId: null,
    rateLimit: null,
    mode: 'live',
    defaultPurpose: null,
  };
};

export const NO_CREDENTIALS = 'Please sign in, or call with an API key.';

/** The first authenticator that recognizes the request decides; none: 401. */
export async function authenticate(
  request: FastifyRequest,
  ways: readonly LookupAuthenticator[],
): Promise<LookupCaller> {
  for (const way of ways) {
    const caller = await way(request);
    if (caller) {
      request.principal = { userId: caller.userId, organizationId: caller.organizationId, keyId: caller.keyId };
      return caller;
    }
  }
  throw new Unauthorized(NO_CREDENTIALS);
}
