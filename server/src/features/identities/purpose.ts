/**
 * The permissible purpose of a lookup (issue 34 item 2): the call's `purpose` query parameter, else its
 * X-Permissible-Purpose header, else its key's default. An id that is none of common/purposes.ts's answers 400
 * naming it; under a contract that lists purposes, a call naming none, or one the list lacks, answers 403 naming the
 * allowed ones. A console session (the playground) has no key, so it must name one. The purpose is kept on the
 * call's audit rows (meter).
 */
import {
  PURPOSE_HEADER,
  PURPOSE_PARAMETER,
  type Purpose,
  parsePurpose,
  purposeRefusal,
} from '@tessera/common/purposes';
import type { FastifyRequest } from 'fastify';
import { BadRequest, Forbidden } from '../../http/errors';
import type { Terms } from '../contracts/billing';
import type { LookupCaller } from './caller';

/** Where a call named its purpose, for a 400's field path. */
function named(request: FastifyRequest): { raw: unknown; path: string } | null {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const asked = query[PURPOSE_PARAMETER];
  if (asked !== undefined && asked !== '') return { raw: asked, path: `querystring.${PURPOSE_PARAMETER}` };
  const header = request.headers[PURPOSE_HEADER];
  if (header !== undefined && header !== '') return { raw: header, path: `headers.${PURPOSE_HEADER}` };
  return null;
}

export function admitPurpose(request: FastifyRequest, caller: LookupCaller, terms: Terms | null): Purpose | null {
  const given =
    named(request) ?? (caller.defaultPurpose ? { raw: caller.defaultPurpose, path: 'key.defaultPurpose' } : null);
  let purpose: Purpose | null = null;
  if (given) {
    const parsed = parsePurpose(given.raw);
    if (parsed.error !== undefined) throw new BadRequest(parsed.error, [{ path: given.path, message: parsed.error }]);
    purpose = parsed.purpose;
  }
  const refusal = purposeRefusal(terms?.purposes, purpose);
  if (refusal) throw new Forbidden(refusal);
  return purpose;
}
