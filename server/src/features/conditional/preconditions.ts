/**
 * Conditional requests on keys and templates (issue 31, common/etag.ts): ETag on every GET of one and of a list, 304
 * to a matching If-None-Match, 412 to an edit whose If-Match names a version the item has moved on from. The check
 * runs with the item's row locked in the edit's transaction, so two processes cannot both pass it for one version.
 */
import { createHash } from 'node:crypto';
import { ifMatchHolds, itemVersion, noneMatchHits } from '@tessera/common/etag';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors';

/** 412 with the item's current version as ETag: what to reload. */
export class PreconditionFailed extends AppError {
  constructor(message: string, etag: string) {
    super(412, 'precondition_failed', message, undefined, { etag });
  }
}

/** A list's tag: a digest of its whole reply, so any change to any item (or which items there are) moves it. */
export function digestTag(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** The reply `body` with its ETag; or 304, no body, when the request's If-None-Match names that tag. */
export function tagged<T>(request: FastifyRequest, reply: FastifyReply, tag: string, body: T): T | FastifyReply {
  reply.header('etag', tag);
  const value = request.headers['if-none-match'];
  if (value !== undefined && noneMatchHits(value, tag)) return reply.code(304).send();
  return body;
}

/** 412 unless the request's If-Match (when it has one) names the item's current version. Call with the row locked. */
export function checkIfMatch(request: FastifyRequest, updatedAt: Date, message: string): void {
  const value = request.headers['if-match'];
  if (value === undefined) return;
  const version = itemVersion(updatedAt.toISOString());
  if (!ifMatchHolds(value, version)) throw new PreconditionFailed(message, `"${version}"`);
}

/**
 * An item's tag: its version, and after a dot a digest of `live`, figures that move without an edit (a key's usage):
 * they keep a 304 from hiding a change, and If-Match ignores them.
 */
export function itemTag(updatedAt: string, live?: unknown): string {
  const version = itemVersion(updatedAt);
  if (live === undefined) return `"${version}"`;
  const digest = createHash('sha256').update(JSON.stringify(live)).digest('base64url').slice(0, 11);
  return `"${version}.${digest}"`;
}
